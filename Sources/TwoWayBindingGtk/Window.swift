public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// A `GtkWindow` (or a subclass, such as `AdwApplicationWindow`).
public final class Window: Widget {
    public override class var gtkType: GType { gtk_window_get_type() }

    private var window: UnsafeMutablePointer<GtkWindow>? { pointer?.cast(to: GtkWindow.self) }

    /// The title shown in the title bar.
    public var title: String {
        get { window.flatMap { gtk_window_get_title($0) }.map { String(cString: $0) } ?? "" }
        set { window.map { gtk_window_set_title($0, newValue) } }
    }

    /// The size the window opens at, and that follows the user's resizing
    /// (kept while it is maximized); 0 for a side GTK chooses.
    public var defaultSize: (width: Int, height: Int) {
        get {
            var width: gint = 0, height: gint = 0
            if let window { gtk_window_get_default_size(window, &width, &height) }
            return (Int(width), Int(height))
        }
        set {
            guard let window else { return }
            gtk_window_set_default_size(window, gint(clamping: newValue.width), gint(clamping: newValue.height))
        }
    }

    /// Whether the window fills the screen; setting it maximizes or restores it.
    public var isMaximized: Bool {
        get { window.map { gtk_window_is_maximized($0) != 0 } ?? false }
        set {
            guard let window else { return }
            if newValue { gtk_window_maximize(window) } else { gtk_window_unmaximize(window) }
        }
    }

    /// Makes the window a dialog of `parent`: kept above it, centred on it,
    /// and, if `modal`, taking its input until it closes.
    public func standOver(_ parent: Window?, modal: Bool = true) {
        guard let window else { return }
        gtk_window_set_transient_for(window, parent?.window)
        gtk_window_set_modal(window, modal ? TWB_TRUE : TWB_FALSE)
    }

    /// Calls `handler` when the window is asked to close (its close button,
    /// the keyboard, `close()`), while it is still whole: the place to save
    /// its size or a draft. The window then closes.
    public func onCloseRequest(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        guard let pointer else { return ObservationToken {} }
        return Signal.connectDeciding(pointer, signal: "close-request") {
            handler()
            return TWB_FALSE
        }
    }

    /// The icon every window shows unless it names its own: the app's,
    /// by its icon name (usually the application id).
    public static func setDefaultIconName(_ name: String) {
        gtk_window_set_default_icon_name(name)
    }

    /// Makes the window one of `application`'s: the application's actions
    /// and shortcuts reach it, and the application runs until its last
    /// window closes.
    public func add(to application: Application) {
        guard let window else { return }
        gtk_window_set_application(window, application.pointer)
    }

    /// Shows the window as one of `application`'s.
    public func present(in application: Application) {
        add(to: application)
        present()
    }

    /// Shows the window, or raises it if it is shown already.
    public func present() {
        if let window { gtk_window_present(window) }
    }

    /// Closes the window, as its close button does.
    public func close() {
        if let window { gtk_window_close(window) }
    }
}
