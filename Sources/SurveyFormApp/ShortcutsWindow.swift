import TwoWayBinding
import GtkAppShell
import TwoWayBindingGtk

/// The keyboard shortcuts window (Ctrl+?), built when asked for. GTK would
/// build one from `gtk/help-overlay.ui` for every window as it is made, which
/// delays each window's first frame for a window few open.
@MainActor
enum ShortcutsWindow {
    /// Adds `win.show-help-overlay`, the name GTK's own help overlay uses, to
    /// a window's actions; the token takes it out again.
    static func addAction(to actions: ActionMap, of window: Window) -> ObservationToken {
        actions.add("show-help-overlay") { [weak window] in present(over: window) }
    }

    /// A new shortcuts window over `parent`; it is destroyed when it closes.
    static func present(over parent: Window?) {
        do {
            let builder = try Builder(resource: "\(AppInfo.resourceBase)/ui/shortcuts-window.ui")
            let window = try builder.object("shortcutsWindow", as: Window.self)
            window.standOver(parent, modal: true)
            window.present()
        } catch {
            // The interface is compiled into the binary: this is a build defect.
            fatalError("the shortcuts window cannot be built: \(error)")
        }
    }
}
