import CTwoWayBindingAdw

/// libadwaita itself.
@MainActor
public enum Adwaita {
    private static var isInitialized = false

    /// Sets libadwaita up (its styles, its types, the system's dark or light
    /// preference), opening GTK's display first if GTK has none yet. Calling
    /// it again does nothing.
    ///
    /// Call it before the application starts up, while the process has one
    /// thread (from `Application.onLocalOptions`, once the launch is known to
    /// show a window): GTK then opens its display without parsing its own
    /// theme, which libadwaita replaces. Called from `onStartup`, after GTK
    /// has opened its display, it works the same, only later.
    public static func initialize() {
        guard !isInitialized else { return }
        isInitialized = true
        // NB: both in Sources/CTwoWayBindingAdw/shim.h.
        _ = twb_adw_init_gtk_without_its_theme()
        adw_init()
        twb_adw_read_icon_theme_in_background()
    }
}
