import CAdw
import CTwoWayBindingGtkShims
import Foundation
import SurveySync
import TwoWayBinding
import TwoWayBindingGtk

/// Preferences: the shared server responses are sent to. Its rows are bound
/// to a copy of the settings, which is saved (GSettings, and the password in
/// the keyring) when the window closes, so that a half-typed host is never
/// tried; then the outbox is sent at once.
@MainActor
final class PreferencesWindow {
    private let window: UnsafeMutablePointer<GtkWidget>
    private let server: Observable<ServerSettings>
    private let password = Observable("")
    private let saved: ServerSettings
    private var handlers: [ObservationToken] = []
    /// The one open, kept alive while it is.
    private static var shown: PreferencesWindow?

    static func present(over parent: UnsafeMutablePointer<GtkWindow>?) {
        if let shown {
            gtk_window_present(shown.window.cast(to: GtkWindow.self))
            return
        }
        let preferences = PreferencesWindow(parent: parent)
        shown = preferences
        gtk_window_present(preferences.window.cast(to: GtkWindow.self))
    }

    private init(parent: UnsafeMutablePointer<GtkWindow>?) {
        saved = Settings.shared.server
        server = Observable(saved)
        window = adw_preferences_window_new()!
        let gtkWindow = window.cast(to: GtkWindow.self)
        gtk_window_set_title(gtkWindow, tr("Preferences"))
        gtk_window_set_modal(gtkWindow, TWB_TRUE)
        gtk_window_set_default_size(gtkWindow, 560, 640)
        if let parent { gtk_window_set_transient_for(gtkWindow, parent) }
        adw_preferences_window_set_search_enabled(window.cast(to: AdwPreferencesWindow.self), TWB_FALSE)

        let page = adw_preferences_page_new()!
        adw_preferences_page_set_title(page.cast(to: AdwPreferencesPage.self), tr("Server"))
        adw_preferences_page_set_icon_name(page.cast(to: AdwPreferencesPage.self), "network-server-symbolic")
        let group = adw_preferences_group_new()!
        adw_preferences_group_set_title(group.cast(to: AdwPreferencesGroup.self), tr("Shared Server"))
        adw_preferences_group_set_description(group.cast(to: AdwPreferencesGroup.self), tr(
            "Submitted responses are also sent to this PostgreSQL server, and kept here. Leave the server empty to keep them on this computer only."
        ))
        for row in makeRows() { adw_preferences_group_add(group.cast(to: AdwPreferencesGroup.self), row) }
        adw_preferences_page_add(page.cast(to: AdwPreferencesPage.self), group.cast(to: AdwPreferencesGroup.self))
        adw_preferences_window_add(window.cast(to: AdwPreferencesWindow.self), page.cast(to: AdwPreferencesPage.self))

        handlers.append(Signal.connect(UnsafeMutableRawPointer(window), signal: "destroy") {
            guard let preferences = Self.shown else { return }
            Self.shown = nil
            preferences.save()
        })
    }

    private func makeRows() -> [UnsafeMutablePointer<GtkWidget>] {
        var rows: [UnsafeMutablePointer<GtkWidget>] = []
        func entryRow(_ title: String, _ field: WritableKeyPath<ServerSettings, String>) {
            let row = adw_entry_row_new()!
            adw_preferences_row_set_title(row.cast(to: AdwPreferencesRow.self), title)
            // An AdwEntryRow is a GtkEditable.
            (try? Entry.wrapping(row))?.bind(with: server.projection(field))
            rows.append(row)
        }
        entryRow(tr("Server"), \.host)

        let portRow = adw_action_row_new()!
        adw_preferences_row_set_title(portRow.cast(to: AdwPreferencesRow.self), tr("Port"))
        let portControl = SpinButton(range: 1...65_535, step: 1)
        let port = portControl.pointer!
        gtk_widget_set_valign(port, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(portRow.cast(to: AdwActionRow.self), port)
        // A suffix control is not named by its row (see the notes on rows).
        portControl.accessibleLabel = tr("Port")
        portControl.bind(with: server.projection(\.port), transform: ValueTransform(
            toControl: { Double($0) }, toModel: { .success(Int($0)) }
        ))
        rows.append(portRow)

        entryRow(tr("Database"), \.database)
        entryRow(tr("User"), \.user)

        let passwordRow = adw_password_entry_row_new()!
        adw_preferences_row_set_title(passwordRow.cast(to: AdwPreferencesRow.self), tr("Password (kept in the keyring)"))
        (try? Entry.wrapping(passwordRow))?.bind(with: password)
        rows.append(passwordRow)

        let securityRow = adw_action_row_new()!
        adw_preferences_row_set_title(securityRow.cast(to: AdwPreferencesRow.self), tr("Check the Server's Certificate"))
        adw_action_row_set_subtitle(securityRow.cast(to: AdwActionRow.self), tr(
            "Turn off only for a test server: the password and the responses then cross the network unprotected."
        ))
        let security = Switch()
        let check = security.pointer!
        gtk_widget_set_valign(check, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(securityRow.cast(to: AdwActionRow.self), check)
        adw_action_row_set_activatable_widget(securityRow.cast(to: AdwActionRow.self), check)
        security.bind(with: server.projection(\.security), transform: ValueTransform(
            toControl: { $0 == .verifyFull }, toModel: { .success($0 ? .verifyFull : .insecure) }
        ))
        rows.append(securityRow)
        entryRow(tr("Certificate Authority File (PEM, optional)"), \.certificateAuthority)
        return rows
    }

    /// Saves what changed; a new password goes to the keyring off the main
    /// thread, and the outbox is sent once it is there.
    private func save() {
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
