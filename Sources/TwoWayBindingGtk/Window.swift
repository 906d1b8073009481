public import CTwoWayBindingGtkShims

/// A `GtkWindow` (or a subclass, such as `AdwApplicationWindow`).
public final class Window: Widget {
    public override class var gtkType: GType { gtk_window_get_type() }

    private var window: UnsafeMutablePointer<GtkWindow>? { pointer?.cast(to: GtkWindow.self) }

    /// The title shown in the title bar.
    public var title: String {
        get { window.flatMap { gtk_window_get_title($0) }.map { String(cString: $0) } ?? "" }
        set { window.map { gtk_window_set_title($0, newValue) } }
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
