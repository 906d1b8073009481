import Foundation
import SurveySync
import TwoWayBinding
import TwoWayBindingGtk

/// Preferences: the shared server responses are sent to, and what forms
/// record of the person collecting. Its rows are bound
/// to a copy of the settings, which is saved (GSettings, and the password in
/// the keyring) when the window closes, so that a half-typed host is never
/// tried; then the outbox is sent at once.
@MainActor
final class PreferencesWindow {
    private let window: Window
    private let server: Observable<ServerSettings>
    private let password = Observable("")
    private let saved: ServerSettings
    private let metadata: Observable<FormMetadata>
    private let savedMetadata: FormMetadata
    private let bag = ObservationToken.Bag()
    /// The one open, kept alive while it is.
    private static var shown: PreferencesWindow?

    static func present(over parent: Window?) {
        if let shown {
            shown.window.present()
            return
        }
        let preferences = PreferencesWindow(parent: parent)
        shown = preferences
        preferences.window.present()
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
        let password = password.value
        guard !password.isEmpty, settings.problem == nil else {
            SyncService.shared.settingsChanged()
            return
        }
        let server = settings
        Task {
            let stored = await Task.detached { Result { try Keyring.store(password, for: server) } }.value
            if case .failure(let error) = stored {
                SyncService.shared.report(problem: error.localizedDescription)
            }
            SyncService.shared.settingsChanged()
        }
    }
}
