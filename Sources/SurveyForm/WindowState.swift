import CTwoWayBindingGtkShims

/// The window's size and maximized state, kept between runs in GSettings.
@MainActor
struct WindowState {
    let settings: Settings

    func restore(to window: UnsafeMutablePointer<GtkWindow>) {
        let width = settings.windowWidth, height = settings.windowHeight
        if width > 0, height > 0 { gtk_window_set_default_size(window, gint(clamping: width), gint(clamping: height)) }
        if settings.isWindowMaximized { gtk_window_maximize(window) }
    }

    func save(from window: UnsafeMutablePointer<GtkWindow>) {
        var width: gint = 0, height: gint = 0
        // The default size follows the user's resizing, and is kept while maximized.
        gtk_window_get_default_size(window, &width, &height)
        settings.windowWidth = Int(width)
        settings.windowHeight = Int(height)
        settings.isWindowMaximized = gtk_window_is_maximized(window) != 0
    }
}
