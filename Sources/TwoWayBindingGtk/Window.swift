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

    /// Shows the window as one of `application`'s, which runs until its last
    /// window closes.
    public func present(in application: Application) {
        guard let window else { return }
        gtk_window_set_application(window, application.pointer)
        gtk_window_present(window)
    }
}
