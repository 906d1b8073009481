import CGtk
import TwoWayBindingGtk

/// The app-wide actions and every keyboard shortcut, in one place.
@MainActor
enum AppActions {
    static func install(on app: SurveyApplication) {
        addAction("quit", to: app) { [weak app] in app?.quit() }
        addAction("about", to: app) { [weak app] in app?.showAbout() }
        addAction("open-form", to: app) { [weak app] in app?.chooseForm() }

        let shortcuts: [(action: String, accels: [String])] = [
            ("app.quit", ["<Control>q"]),
            ("app.open-form", ["<Control>o"]),
            ("win.close", ["<Control>w"]),
            ("win.submit", ["<Control>s", "<Control>Return", "<Control>KP_Enter"]),
            ("win.undo", ["<Control>z"]),
            ("win.redo", ["<Control><Shift>z", "<Control>y"]),
            ("win.export-csv", ["<Control>e"]),
            ("win.show-help-overlay", ["<Control>question"]),
        ]
        for shortcut in shortcuts {
            setAccels(shortcut.accels, for: shortcut.action, on: app.application)
        }
    }

    private static func addAction(_ name: String, to app: SurveyApplication, _ handler: @escaping @MainActor () -> Void) {
        let action = g_simple_action_new(name, nil)!
        SignalHandler.connect(UnsafeMutableRawPointer(action), signal: "activate", handler)
        g_action_map_add_action(OpaquePointer(app.gApplication), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    private static func setAccels(_ accels: [String], for action: String, on application: UnsafeMutablePointer<GtkApplication>) {
        var pointers = accels.map { strdup($0) }
        pointers.append(nil)
        defer { pointers.forEach { free($0) } }
        pointers.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_application_set_accels_for_action(application, action, $0)
            }
        }
    }
}
