import CTwoWayBindingAdw

/// libadwaita itself.
@MainActor
public enum Adwaita {
    /// Sets libadwaita up (its styles, its types, the system's dark or light
    /// preference): once, after GTK has a display and before the first
    /// libadwaita widget, as in an application's `onStartup`. Calling it
    /// again does nothing.
    public static func initialize() {
        adw_init()
        // NB: Sources/CTwoWayBindingAdw/shim.h.
        twb_adw_read_icon_theme_in_background()
    }
}
