import Foundation
import SurveySync
import GtkAppShell
import TwoWayBindingGtk

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

    private let settings: SettingsStore?
    private var fallback: [String: Any] = [:]

    private init() {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/glib-2.0/schemas").path
        let directories = [installed, buildSchemaDirectory].filter {
            FileManager.default.fileExists(atPath: $0 + "/gschemas.compiled")
        }
        settings = SettingsStore(schemaID: AppInfo.id, alsoLookingIn: directories)
        if settings == nil {
            FileHandle.standardError.write(Data(
                "survey-form: the settings schema \(AppInfo.id) is not installed; settings are not kept\n".utf8
            ))
        }
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
        get { StoredSettings.recentForms(strings("recent-forms")) }
        set { setStrings("recent-forms", StoredSettings.recentForms(newValue)) }
    }

    /// The form file being opened, from before it is read until its window
    /// has drawn; written through at once, since what follows may never
    /// return. Still set at a start: that form crashed or hung the app.
    var openingForm: String {
        get { string("opening-form", default: "") }
        set {
            // Every window's first frame clears it: no write, and no sync on
            // the main loop, when nothing was being opened.
            guard newValue != openingForm else { return }
            setString("opening-form", newValue)
            flush()
        }
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
                security: StoredSettings.checksCertificate(string("server-security", default: "")) ? .verifyFull : .insecure,
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

    /// What a form's metadata rows take from the person collecting
    /// (`username`, `email`, `phonenumber`), as Preferences sets them.
    var formMetadata: FormMetadata {
        get {
            FormMetadata(
                username: StoredSettings.metadataValue(string("metadata-username", default: "")),
                email: StoredSettings.metadataValue(string("metadata-email", default: "")),
                phoneNumber: StoredSettings.metadataValue(string("metadata-phone-number", default: ""))
            )
        }
        set {
            setString("metadata-username", newValue.username)
            setString("metadata-email", newValue.email)
            setString("metadata-phone-number", newValue.phoneNumber)
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
        SettingsStore.flush()
    }

    // MARK: - GSettings

    private func integer(_ key: String, default value: Int) -> Int {
        guard let settings else { return fallback[key] as? Int ?? value }
        return settings.integer(key)
    }

    private func setInteger(_ key: String, _ value: Int) {
        guard let settings else { fallback[key] = value; return }
        settings.setInteger(key, value)
    }

    private func boolean(_ key: String, default value: Bool) -> Bool {
        guard let settings else { return fallback[key] as? Bool ?? value }
        return settings.boolean(key)
    }

    private func setBoolean(_ key: String, _ value: Bool) {
        guard let settings else { fallback[key] = value; return }
        settings.setBoolean(key, value)
    }

    private func string(_ key: String, default value: String) -> String {
        guard let settings else { return fallback[key] as? String ?? value }
        return settings.string(key)
    }

    private func setString(_ key: String, _ value: String) {
        guard let settings else { fallback[key] = value; return }
        settings.setString(key, value)
    }

    private func strings(_ key: String) -> [String] {
        guard let settings else { return fallback[key] as? [String] ?? [] }
        return settings.strings(key)
    }

    private func setStrings(_ key: String, _ values: [String]) {
        guard let settings else { fallback[key] = values; return }
        settings.setStrings(key, values)
    }
}
