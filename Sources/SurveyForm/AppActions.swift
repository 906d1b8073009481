import CGtk
import TwoWayBindingGtk

/// The app-wide actions and every keyboard shortcut, in one place.
@MainActor
enum AppActions {
    static func install(on app: SurveyApplication) {
        let map = OpaquePointer(app.gApplication)
        add("quit", to: map) { [weak app] in app?.quit() }
        add("about", to: map) { [weak app] in app?.showAbout() }
        add("preferences", to: map) { [weak app] in PreferencesWindow.present(over: app?.activeWindow) }
        add("open-form", to: map) { [weak app] in app?.chooseForm() }
        addOpenRecent(to: map, of: app)
        let sendNow = add("send-now", to: map) { SyncService.shared.sendSoon(ignoringBackoff: true) }
        // Only with a server to send to; the menu hides it otherwise.
        SyncService.shared.status.observe(sendInitial: true) { status in
            g_simple_action_set_enabled(sendNow, status.server != nil ? SF_TRUE : SF_FALSE)
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

    /// Adds the action `name` to `map` (the application's or a window's);
    /// the action, which `map` owns. Its handler lives as long as it does.
    @discardableResult
    static func add(_ name: String, to map: OpaquePointer, _ handler: @escaping @MainActor () -> Void) -> OpaquePointer {
        let action = g_simple_action_new(name, nil)!
        Signal.connect(UnsafeMutableRawPointer(action), signal: "activate", handler).keep(with: UnsafeMutableRawPointer(action))
        g_action_map_add_action(map, action)
        g_object_unref(UnsafeMutableRawPointer(action))
        return action
    }

    /// `app.open-recent`: opens the form file it names, or the built-in
    /// survey for the empty name.
    private static func addOpenRecent(to map: OpaquePointer, of app: SurveyApplication) {
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        let action = g_simple_action_new("open-recent", type)!
        let activate: @convention(c) (OpaquePointer, OpaquePointer?, gpointer) -> Void = { _, parameter, data in
            guard let parameter else { return }
            let path = String(cString: g_variant_get_string(parameter, nil))
            MainActor.assumeIsolated {
                Unmanaged<SurveyApplication>.fromOpaque(data).takeUnretainedValue().openRecent(path: path)
            }
        }
        // The application outlives its actions.
        sf_signal_connect(
            UnsafeMutableRawPointer(action), "activate", unsafeBitCast(activate, to: GCallback.self),
            Unmanaged.passUnretained(app).toOpaque(), nil, SF_FALSE
        )
        g_action_map_add_action(map, action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    private static func setAccels(_ accels: [String], for action: String, on application: UnsafeMutablePointer<GtkApplication>) {
        withNullTerminatedCStrings(accels) { gtk_application_set_accels_for_action(application, action, $0) }
    }
}
