import CTwoWayBindingGtkShims
import Foundation
import SurveySync

/// The app's settings in GSettings (`io.github.surveyform.SurveyForm`): the
/// window's size, the recent forms, kiosk mode and the shared server.
///
/// The schema is looked up where GLib installs it (the system, the Flatpak,
/// `GSETTINGS_SCHEMA_DIR`), then beside an installed binary, then where the
/// build compiled it. With no compiled schema anywhere the app still runs on
/// the schema's defaults, keeping nothing, and says so once.
@MainActor
final class Settings {
    /// The app's settings, shared by the window and the command line.
    static let shared = Settings()

    /// How many recent forms are remembered.
    static let recentFormLimit = 10

    private let settings: UnsafeMutablePointer<GSettings>?
    private var fallback: [String: Any] = [:]

    private init() {
        guard let schema = Self.lookUpSchema() else {
            settings = nil
            FileHandle.standardError.write(Data(
                "survey-form: the settings schema \(AppInfo.id) is not installed; settings are not kept\n".utf8
            ))
            return
        }
        settings = g_settings_new_full(schema, nil, nil)
        g_settings_schema_unref(schema)
    }

    // MARK: - Keys

    var windowWidth: Int {
        get { integer("window-width", default: 960) }
        set { setInteger("window-width", newValue) }
    }

    var windowHeight: Int {
        get { integer("window-height", default: 680) }
        set { setInteger("window-height", newValue) }
    }

    var isWindowMaximized: Bool {
        get { boolean("window-maximized", default: false) }
        set { setBoolean("window-maximized", newValue) }
    }

    /// Whether the window is for respondents only (see `--kiosk`).
    var isKiosk: Bool {
        get { boolean("kiosk", default: false) }
        set { setBoolean("kiosk", newValue) }
    }

    /// Form files opened lately, newest first.
    var recentForms: [String] {
        get { strings("recent-forms") }
        set { setStrings("recent-forms", Array(newValue.prefix(Self.recentFormLimit))) }
    }

    /// Whether the most recent form opens at start (not when the built-in
    /// survey was chosen after it).
    var reopensForm: Bool {
        get { boolean("reopen-form", default: true) }
        set { setBoolean("reopen-form", newValue) }
    }

    /// The shared server responses are sent to (its password is in the keyring).
    var server: ServerSettings {
        get {
            ServerSettings(
                host: string("server-host", default: ""), port: integer("server-port", default: ServerSettings.defaultPort),
                database: string("server-database", default: "survey_responses"), user: string("server-user", default: ""),
                security: ServerSettings.Security(rawValue: string("server-security", default: "")) ?? .verifyFull,
                certificateAuthority: string("server-ca-file", default: "")
            )
        }
        set {
            setString("server-host", newValue.host)
            setInteger("server-port", newValue.port)
            setString("server-database", newValue.database)
            setString("server-user", newValue.user)
            setString("server-security", newValue.security.rawValue)
            setString("server-ca-file", newValue.certificateAuthority)
        }
    }

    /// Puts `path` first among the recent forms.
    func noteOpened(form path: String) {
        recentForms = [path] + recentForms.filter { $0 != path }
        reopensForm = true
    }

    /// Drops `path` from the recent forms (it is gone or no longer runs).
    func forget(form path: String) {
        recentForms = recentForms.filter { $0 != path }
    }

    /// Writes pending changes out before the process ends: GSettings
    /// otherwise writes them from the main loop, which is about to stop.
    func flush() {
        g_settings_sync()
    }

    // MARK: - GSettings

    private static func lookUpSchema() -> OpaquePointer? {
        if let source = g_settings_schema_source_get_default(),
           let schema = g_settings_schema_source_lookup(source, AppInfo.id, TWB_TRUE) {
            return schema
        }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/glib-2.0/schemas").path
        for directory in [installed, buildSchemaDirectory]
        where FileManager.default.fileExists(atPath: directory + "/gschemas.compiled") {
            guard let source = g_settings_schema_source_new_from_directory(
                directory, g_settings_schema_source_get_default(), TWB_FALSE, nil
            ) else { continue }
            defer { g_settings_schema_source_unref(source) }
            if let schema = g_settings_schema_source_lookup(source, AppInfo.id, TWB_FALSE) { return schema }
        }
        return nil
    }

    private func integer(_ key: String, default value: Int) -> Int {
        guard let settings else { return fallback[key] as? Int ?? value }
        return Int(g_settings_get_int(settings, key))
    }

    private func setInteger(_ key: String, _ value: Int) {
        guard let settings else { fallback[key] = value; return }
        g_settings_set_int(settings, key, gint(clamping: value))
    }

    private func boolean(_ key: String, default value: Bool) -> Bool {
        guard let settings else { return fallback[key] as? Bool ?? value }
        return g_settings_get_boolean(settings, key) != 0
    }

    private func setBoolean(_ key: String, _ value: Bool) {
        guard let settings else { fallback[key] = value; return }
        g_settings_set_boolean(settings, key, value ? TWB_TRUE : TWB_FALSE)
    }

    private func string(_ key: String, default value: String) -> String {
        guard let settings else { return fallback[key] as? String ?? value }
        guard let text = g_settings_get_string(settings, key) else { return value }
        defer { g_free(text) }
        return String(cString: text)
    }

    private func setString(_ key: String, _ value: String) {
        guard let settings else { fallback[key] = value; return }
        g_settings_set_string(settings, key, value)
    }

    private func strings(_ key: String) -> [String] {
        guard let settings else { return fallback[key] as? [String] ?? [] }
        guard let list = g_settings_get_strv(settings, key) else { return [] }
        defer { g_strfreev(list) }
        return stringArray(fromNullTerminated: list)
    }

    private func setStrings(_ key: String, _ values: [String]) {
        guard let settings else { fallback[key] = values; return }
        _ = withNullTerminatedCStrings(values) { g_settings_set_strv(settings, key, $0) }
    }
}
