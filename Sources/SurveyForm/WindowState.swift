import TwoWayBindingGtk

/// The window's size and maximized state, kept between runs in GSettings.
@MainActor
struct WindowState {
    let settings: Settings

    func restore(to window: Window) {
        let width = settings.windowWidth, height = settings.windowHeight
        if width > 0, height > 0 { window.defaultSize = (width, height) }
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
