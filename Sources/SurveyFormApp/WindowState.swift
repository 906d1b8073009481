import TwoWayBindingGtk

/// The window's size and maximized state, kept between runs in GSettings.
@MainActor
struct WindowState {
    let settings: Settings

    func restore(to window: Window) {
        if let size = StoredSettings.windowSize(width: settings.windowWidth, height: settings.windowHeight) {
            window.defaultSize = size
        }
        if settings.isWindowMaximized { window.isMaximized = true }
    }

    func save(from window: Window) {
        // The default size follows the user's resizing, and is kept while maximized.
        let size = window.defaultSize
        settings.windowWidth = size.width
        settings.windowHeight = size.height
        settings.isWindowMaximized = window.isMaximized
    }
}
