import CTwoWayBindingGtkShims
import TwoWayBindingGtk

/// The app-wide actions and every keyboard shortcut, in one place.
@MainActor
enum AppActions {
    static func install(on app: SurveyApplication) {
        let map = OpaquePointer(app.gApplication)
        Action.add("quit", to: map) { [weak app] in app?.quit() }
        Action.add("about", to: map) { [weak app] in app?.showAbout() }
        Action.add("preferences", to: map) { [weak app] in PreferencesWindow.present(over: app?.activeWindow) }
        Action.add("open-form", to: map) { [weak app] in app?.chooseForm() }
        addOpenRecent(to: map, of: app)
        let sendNow = Action.add("send-now", to: map) { SyncService.shared.sendSoon(ignoringBackoff: true) }
        // Only with a server to send to; the menu hides it otherwise.
        SyncService.shared.status.observe(sendInitial: true) { status in
            g_simple_action_set_enabled(sendNow, status.server != nil ? TWB_TRUE : TWB_FALSE)
        }.store(in: app.bag)

        let shortcuts: [(action: String, accels: [String])] = [
            ("app.quit", ["<Control>q"]),
            ("app.open-form", ["<Control>o"]),
            ("app.preferences", ["<Control>comma"]),
            ("win.close", ["<Control>w"]),
            ("win.submit", ["<Control>s", "<Control>Return", "<Control>KP_Enter"]),
            ("win.previous-page", ["<Alt>Left"]),
            ("win.next-page", ["<Alt>Right"]),
            ("win.undo", ["<Control>z"]),
            ("win.redo", ["<Control><Shift>z", "<Control>y"]),
            ("win.export-csv", ["<Control>e"]),
            ("win.show-help-overlay", ["<Control>question"]),
        ]
        for shortcut in shortcuts {
            setAccels(shortcut.accels, for: shortcut.action, on: app.application)
        }
    }

    /// `app.open-recent`: opens the form file it names, or the built-in
    /// survey for the empty name.
    private static func addOpenRecent(to map: OpaquePointer, of app: SurveyApplication) {
        Action.add("open-recent", to: map, parameter: { [weak app] path in app?.openRecent(path: path) })
    }

    private static func setAccels(_ accels: [String], for action: String, on application: UnsafeMutablePointer<GtkApplication>) {
        withNullTerminatedCStrings(accels) { gtk_application_set_accels_for_action(application, action, $0) }
    }
}
