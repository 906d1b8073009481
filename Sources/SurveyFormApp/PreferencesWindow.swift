import Foundation
import OpenRosa
import SurveySync
import TwoWayBinding
import TwoWayBindingAdw
import TwoWayBindingGtk

/// Preferences: the shared server responses are sent to, the login of each
/// server forms came from (Get Forms), and what forms record of the person
/// collecting. Its rows are bound to a copy of the settings, which is saved
/// (GSettings, the form library's server records, and passwords in the
/// keyring) when the window closes, so that a half-typed host is never
/// tried; then the outbox is sent at once.
@MainActor
final class PreferencesWindow {
    private let window: Window
    private let server: Observable<ServerSettings>
    private let password = Observable("")
    private let saved: ServerSettings
    private let metadata: Observable<FormMetadata>
    private let savedMetadata: FormMetadata
    /// The login of each server forms came from, as shown and as typed.
    private var logins: [FormServerLogin] = []
    private let bag = ObservationToken.Bag()
    /// The one open, kept alive while it is.
    private static var shown: PreferencesWindow?

    /// Shows Preferences over `parent`; with `mending`, opened at that
    /// server's password (a login it refused) or its certificate authority.
    static func present(over parent: Window?, mending server: SyncService.ServerToMend? = nil) {
        let preferences = shown ?? PreferencesWindow(parent: parent)
        shown = preferences
        preferences.window.present()
        if let server { preferences.focus(server) }
    }

    private init(parent: Window?) {
        saved = Settings.shared.server
        server = Observable(saved)
        savedMetadata = Settings.shared.formMetadata
        metadata = Observable(savedMetadata)
        do {
            let builder = try Builder(resource: "\(AppInfo.resourceBase)/ui/preferences-window.ui")
            window = try builder.object("preferencesWindow", as: Window.self)
            // AdwEntryRow and AdwPasswordEntryRow are GtkEditables.
            let rows: [(String, WritableKeyPath<ServerSettings, String>)] = [
                ("hostRow", \.host), ("databaseRow", \.database), ("userRow", \.user),
                ("certificateAuthorityRow", \.certificateAuthority),
            ]
            for (id, field) in rows {
                try builder.object(id, as: Entry.self).bind(with: server.projection(field))
            }
            try builder.object("passwordRow", as: Entry.self).bind(with: password)
            let metadataRows: [(String, WritableKeyPath<FormMetadata, String>)] = [
                ("usernameRow", \.username), ("emailRow", \.email), ("phoneNumberRow", \.phoneNumber),
            ]
            for (id, field) in metadataRows {
                try builder.object(id, as: Entry.self).bind(with: metadata.projection(field))
            }
            let formServers = try PreferencesGroup(builder.object("formServersGroup", as: Widget.self))
            logins = DataLocation.formLibrary.servers
                .sorted { $0.displayName < $1.displayName }
                .map(FormServerLogin.init)
            for login in logins { formServers.add(login.row.widget) }
            if logins.isEmpty {
                formServers.add(ActionRow(title: tr("No Forms from a Server Yet"),
                                          subtitle: tr("Get Forms in the main menu downloads a server's forms; the server is listed here then.")))
            }
            try builder.object("portSpinButton", as: SpinButton.self).bind(
                with: server.projection(\.port),
                transform: ValueTransform(toControl: { Double($0) }, toModel: { .success(Int($0)) })
            )
            try builder.object("securitySwitch", as: Switch.self).bind(
                with: server.projection(\.security),
                transform: ValueTransform(toControl: { $0 == .verifyFull }, toModel: { .success($0 ? .verifyFull : .insecure) })
            )
        } catch {
            // The interface is compiled into the binary: this is a build defect.
            fatalError("the preferences window's interface cannot be built: \(error)")
        }
        window.standOver(parent)
        window.onDestroy {
            guard let preferences = Self.shown else { return }
            Self.shown = nil
            preferences.save()
        }
        .store(in: bag)
    }

    /// Saves what changed; a new password goes to the keyring off the main
    /// thread, and the outbox is sent once it is there.
    private func save() {
        // Forms opened from now on take the new details.
        var details = metadata.value
        for field in [\FormMetadata.username, \.email, \.phoneNumber] {
            details[keyPath: field] = StoredSettings.metadataValue(details[keyPath: field])
        }
        if details != savedMetadata { Settings.shared.formMetadata = details }
        var settings = server.value
        settings.host = settings.host.trimmingCharacters(in: .whitespaces)
        settings.database = settings.database.trimmingCharacters(in: .whitespaces)
        settings.user = settings.user.trimmingCharacters(in: .whitespaces)
        settings.certificateAuthority = settings.certificateAuthority.trimmingCharacters(in: .whitespaces)
        if settings != saved { Settings.shared.server = settings }
        let password = settings.problem == nil ? password.value : ""
        let changes = logins.compactMap(\.change)
        guard !password.isEmpty || !changes.isEmpty else {
            SyncService.shared.settingsChanged()
            return
        }
        let server = settings
        let library = DataLocation.formLibrary
        Task {
            let problem = await Task.detached { () -> String? in
                var problem: String?
                if !password.isEmpty {
                    do { try Keyring.store(password, for: server) } catch { problem = error.localizedDescription }
                }
                for change in changes {
                    do { try change.save(in: library) } catch { problem = problem ?? error.localizedDescription }
                }
                return problem
            }.value
            if let problem { SyncService.shared.report(problem: problem) }
            SyncService.shared.settingsChanged()
        }
    }

    /// Opens the row of the server and puts the keyboard in its password
    /// or its certificate authority.
    private func focus(_ server: SyncService.ServerToMend) {
        guard let login = logins.first(where: { $0.server.url.absoluteString == server.address }) else { return }
        for other in logins { other.row.isExpanded = other === login }
        (server.certificate ? login.authorityRow : login.passwordRow).grabFocus()
    }
}

/// One server's login in Preferences: its user, a new password and the
/// certificate authority trusted for it, typed into rows under its address.
@MainActor
private final class FormServerLogin {
    let server: OpenRosaServer
    let row: ExpanderRow
    let passwordRow: Entry
    let authorityRow: Entry
    private let user: Observable<String>
    private let password = Observable("")
    private let certificateAuthority: Observable<String>

    init(_ server: OpenRosaServer) {
        self.server = server
        user = Observable(server.user)
        certificateAuthority = Observable(server.certificateAuthority)
        row = ExpanderRow(title: server.displayName, subtitle: server.user.isEmpty ? tr("No login: its address holds a key")
            : String(format: tr("Logged in as %@"), server.user))
        let userRow = Entry.row(title: tr("User"))
        passwordRow = Entry.row(title: tr("Password (kept in the keyring)"), isPassword: true)
        authorityRow = Entry.row(title: tr("Certificate Authority File (PEM, optional)"))
        userRow.bind(with: user)
        passwordRow.bind(with: password)
        authorityRow.bind(with: certificateAuthority)
        row.add(userRow)
        row.add(passwordRow)
        row.add(authorityRow)
    }

    /// What was typed, to save; nil when nothing was.
    var change: Change? {
        let typedUser = user.value.trimmingCharacters(in: .whitespaces)
        let typedAuthority = certificateAuthority.value.trimmingCharacters(in: .whitespaces)
        guard typedUser != server.user || typedAuthority != server.certificateAuthority || !password.value.isEmpty else {
            return nil
        }
        return Change(server: server, user: typedUser, password: password.value, certificateAuthority: typedAuthority)
    }

    /// A changed login, saved off the main thread (the keyring blocks).
    struct Change: Sendable {
        let server: OpenRosaServer
        let user: String
        let password: String
        let certificateAuthority: String

        func save(in library: FormLibrary) throws {
            let changed = user == server.user && certificateAuthority == server.certificateAuthority ? server
                : try library.changeLogin(of: server, user: user, certificateAuthority: certificateAuthority)
            if !password.isEmpty, !changed.user.isEmpty { try Keyring.store(password, forOpenRosa: changed) }
        }
    }
}
