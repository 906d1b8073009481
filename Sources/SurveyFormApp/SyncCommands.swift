import Dispatch
import Foundation
import OpenRosa
import SurveyStorage
import SurveySync

/// The command line's side of server sync, no display needed:
/// `--sync-status`, `--sync-now`, `--server-setup`, `--store-password`,
/// `--publish-form` and `--export-csv --from-server`.
/// The server comes from the settings, with `--server`, `--port`,
/// `--database`, `--user`, `--insecure` and `--ca-file` standing in for them in one run,
/// and the password typed for the run (`--ask-password`) for the keyring's.
@MainActor
enum SyncCommands {
    enum Command: Equatable {
        case status, sendNow, setUpServer, storePassword
        case publishForm(path: String)
        case exportFromServer(folder: String, replacing: Bool)
    }

    /// What the command line changes of the saved server settings, for this run only.
    struct Overrides: Equatable {
        var host: String?
        var port: Int?
        var database: String?
        var user: String?
        var insecure = false
        var certificateAuthority: String?
        /// The password is read from standard input for this run, not the keyring.
        var askPassword = false

        func applied(to saved: ServerSettings) -> ServerSettings {
            var settings = saved
            if let host { settings.host = host }
            if let port { settings.port = port }
            if let database { settings.database = database }
            if let user { settings.user = user }
            if insecure { settings.security = .insecure }
            if let certificateAuthority { settings.certificateAuthority = certificateAuthority }
            return settings
        }
    }

    /// Runs `command`; the process's exit status (2: no usable server set).
    static func run(_ command: Command, overrides: Overrides) -> Int32 {
        let settings = overrides.applied(to: Settings.shared.server)
        var openRosaStatus: Int32?
        if command == .sendNow {
            // Responses to forms from OpenRosa servers go to those servers,
            // whether or not a shared server is set.
            openRosaStatus = sendToOpenRosaServers()
            if settings.problem != nil, let openRosaStatus { return openRosaStatus }
        }
        // The OpenRosa servers forms came from, which their responses go to.
        let formServers = command == .status
            ? ((try? ResponseStore(directory: DataLocation.dataDirectory).openRosaDestinations()) ?? [])
                .compactMap(DataLocation.formLibrary.server(at:))
            : []
        for server in formServers {
            Terminal.say(String(format: tr("Server: %@ (OpenRosa, its forms' responses)"), server.displayName))
        }
        if let problem = settings.problem {
            if command == .status {
                if formServers.isEmpty {
                    Terminal.say(tr("Server: none set. Responses stay on this computer until one is."))
                }
                return printQueue() ? 0 : 1
            }
            printError(problem + " " + tr("Set it in Preferences, or with --server, --database and --user."))
            return 2
        }
        switch command {
        case .status:
            Terminal.say(String(format: tr("Server: %@ (%@)"), settings.displayName, settings.security.rawValue))
            return printQueue() ? 0 : 1
        case .storePassword:
            guard let password = readLine(strippingNewline: true), !password.isEmpty else {
                printError(tr("No password was given on standard input."))
                return 2
            }
            do {
                try Keyring.store(password, for: settings)
                Terminal.say(String(format: tr("The password for %@ is in the keyring."), settings.displayName))
                return 0
            } catch {
                printError(error.localizedDescription)
                return 1
            }
        case .setUpServer:
            return withServer(settings, asking: overrides.askPassword, { secret in try await ServerSchema.migrate(settings, password: secret) }) { before in
                Terminal.say(String(format: tr("The server %@ is set up (schema version %d, was %d)."),
                             settings.displayName, Int32(ServerSchema.current), Int32(before)))
            }
        case .publishForm(let path):
            let form: FormFile
            switch FormFile.load(path: path) {
            case .success(let loaded): form = loaded
            case .failure(let error):
                printError(error.message)
                return 2
            }
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: form.path ?? path))
            } catch {
                printError(error.localizedDescription)
                return 1
            }
            let definition = form.definition, fileName = URL(fileURLWithPath: form.path ?? path).lastPathComponent
            return withServer(settings, asking: overrides.askPassword, { secret in
                try await ServerForms.publish(settings, password: secret, definition: definition, data: data, fileName: fileName)
            }) { isNew in
                Terminal.say(String(format: isNew ? tr("Version %@ of the form %@ is on the server now.")
                                           : tr("Version %@ of the form %@ was on the server already."),
                             form.version, form.id))
            }
        case .exportFromServer(let folder, let replacing):
            let url = URL(fileURLWithPath: folder)
            return withServer(settings, asking: overrides.askPassword, { secret in
                try await ServerExport.write(
                    settings, password: secret, into: url, replacing: replacing, knownForms: [BuiltInSurvey.definition]
                )
            }) { files in
                for file in files {
                    Terminal.say(String(format: trn("Exported %d response to %@", "Exported %d responses to %@", file.responses),
                                 Int32(file.responses), file.url.path))
                }
                if files.isEmpty { Terminal.say(tr("The server holds no responses yet.")) }
            }
        case .sendNow:
            let store: ResponseStore
            let secret: String?
            do {
                store = try ResponseStore(directory: DataLocation.dataDirectory)
                secret = try password(for: settings, asking: overrides.askPassword)
            } catch {
                printError(error.localizedDescription)
                return 1
            }
            let report = Terminal.waitFor { () async throws -> OutboxSender.Report in
                await OutboxSender(store: store, settings: settings, password: secret).sendDue(ignoringBackoff: true)
            }
            guard case .success(let sent) = report else { return 1 }
            Terminal.say(String(format: trn("Sent %d response to %@.", "Sent %d responses to %@.", sent.sent),
                         Int32(sent.sent), settings.displayName))
            if let failure = sent.failure {
                printError(failure.message)
                _ = printQueue()
                return 1
            }
            return openRosaStatus ?? 0
        }
    }

    /// Sends the responses queued for OpenRosa servers, to each server in
    /// turn; nil when no response was ever for one, else the exit status
    /// (1: a server did not take them all).
    private static func sendToOpenRosaServers() -> Int32? {
        let store: ResponseStore
        let destinations: [String]
        do {
            store = try ResponseStore(directory: DataLocation.dataDirectory)
            destinations = try store.openRosaDestinations()
        } catch {
            printError(error.localizedDescription)
            return 1
        }
        guard !destinations.isEmpty else { return nil }
        var status: Int32 = 0
        for destination in destinations {
            guard let server = DataLocation.formLibrary.server(at: destination) else {
                printError(String(format: tr("Responses are queued for %@, which is not a server address."), destination))
                status = 1
                continue
            }
            let report = Terminal.waitFor { () async throws -> OutboxSender.Report in
                let password = try Keyring.password(forOpenRosa: server)
                return await OpenRosaSender(store: store, server: server, password: password).sendDue(ignoringBackoff: true)
            }
            guard case .success(let sent) = report else {
                if case .failure(let error) = report { printError(error.localizedDescription) }
                status = 1
                continue
            }
            Terminal.say(String(format: trn("Sent %d response to %@.", "Sent %d responses to %@.", sent.sent),
                         Int32(sent.sent), server.displayName))
            if let failure = sent.failure {
                printError(failure.message)
                status = 1
            }
        }
        return status
    }

    /// Reads the keyring's password for `settings`, runs `work` with it off
    /// the main thread, and has `report` print what it gave (exit 0); a
    /// failure is printed instead (exit 1).
    private static func withServer<T: Sendable>(
        _ settings: ServerSettings, asking: Bool, _ work: @escaping @Sendable (String?) async throws -> T, report: (T) -> Void
    ) -> Int32 {
        let secret: String?
        do {
            secret = try password(for: settings, asking: asking)
        } catch {
            printError(error.localizedDescription)
            return 1
        }
        switch Terminal.waitFor({ try await work(secret) }) {
        case .success(let value):
            report(value)
            return 0
        case .failure(let error as StorageError) where error.code == .fileExists:
            printError(error.message + " " + tr("Add --force to replace the files."))
            return 1
        case .failure(let error):
            printError(error.localizedDescription)
            return 1
        }
    }

    /// The outbox's counts and latest failure; whether they could be read.
    private static func printQueue() -> Bool {
        do {
            let summary = try ResponseStore(directory: DataLocation.dataDirectory).deliverySummary()
            Terminal.say(String(format: tr("Waiting: %d"), Int32(summary.waiting)))
            Terminal.say(String(format: tr("Sending: %d"), Int32(summary.sending)))
            Terminal.say(String(format: tr("Failed, to be tried again: %d"), Int32(summary.failed)))
            Terminal.say(String(format: tr("Sent: %d"), Int32(summary.sent)))
            if let lastSent = summary.lastSentAt {
                Terminal.say(String(format: tr("Last sent: %@"), lastSent.desktopText))
            }
            if let error = summary.lastError { Terminal.say(String(format: tr("Last error: %@"), error)) }
            if let next = summary.nextAttemptAt, summary.failed > 0 {
                Terminal.say(String(format: tr("Next try: %@"), next.desktopText))
            }
            return true
        } catch {
            printError(error.localizedDescription)
            return false
        }
    }

    /// The password typed for this run when `asking`, else the keyring's
    /// (which it refuses to an unverified connection), `nil` when none is
    /// stored (a server that trusts this login needs none).
    private static func password(for settings: ServerSettings, asking: Bool) throws -> String? {
        guard asking else { return try Keyring.password(for: settings) }
        guard let typed = Terminal.readPassword(prompt: String(format: tr("Password for %@: "), settings.displayName)), !typed.isEmpty else {
            throw SyncError(tr("No password was given on standard input."), kind: .notConfigured)
        }
        return typed
    }

    private static func printError(_ message: String) {
        Terminal.error(message)
    }
}
