import CTwoWayBindingGtkShims
public import TwoWayBindingGtk

extension Window {
    /// Makes the window one of `application`'s: the application's actions
    /// and shortcuts reach it, and the application runs until its last
    /// window closes.
    public func add(to application: Application) {
        guard let window = pointer?.cast(to: GtkWindow.self) else { return }
        gtk_window_set_application(window, application.pointer)
    }

    /// Shows the window as one of `application`'s.
    public func present(in application: Application) {
        add(to: application)
        present()
    }
}
