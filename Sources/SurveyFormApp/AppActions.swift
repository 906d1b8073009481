import GtkAppShell
import TwoWayBindingGtk

/// The app-wide actions and every keyboard shortcut, in one place.
@MainActor
enum AppActions {
    static func install(on app: SurveyApplication) {
        let actions = ActionMap(of: app.application)
        let bag = app.bag
        actions.add("quit") { [weak app] in app?.quit() }.store(in: bag)
        actions.add("about") { [weak app] in app?.showAbout() }.store(in: bag)
        actions.add("preferences") { [weak app] in PreferencesWindow.present(over: app?.activeWindow) }.store(in: bag)
        actions.add("open-form") { [weak app] in app?.chooseForm() }.store(in: bag)
        actions.add("get-forms") { [weak app] in app?.getForms() }.store(in: bag)
        // The menu's recent forms: a form file's path, or "" for the built-in survey.
        actions.add("open-recent", parameter: { [weak app] path in app?.openRecent(path: path) }).store(in: bag)
        actions.add("send-now") { SyncService.shared.sendSoon(ignoringBackoff: true) }.store(in: bag)
        // Only with a server to send to; the menu hides it otherwise.
        SyncService.shared.status.observe(sendInitial: true) { status in
            actions.setEnabled("send-now", status.server != nil)
        }.store(in: bag)

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
            app.application.setAccelerators(shortcut.accels, for: shortcut.action)
        }
    }
}
