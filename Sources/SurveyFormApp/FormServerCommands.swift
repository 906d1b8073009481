import FormEngine
import Foundation
import OpenRosa
import SurveySync

/// The command line's OpenRosa form commands: `--list-forms URL` and
/// `--get-forms URL [--form-id ID]`, with `--user` and `--ask-password`
/// (or, with `--user` alone, the password kept for that login).
/// Forms arrive in the app's form library (`FormLibrary`), a folder per
/// server, form and version.
enum FormServerCommands {
    enum Command: Equatable {
        case list(server: String)
        case get(server: String, formID: String?)
    }

    struct Login: Equatable {
        var user = ""
        var askPassword = false
        /// `--ca-file`: an authority trusted besides the system's.
        var certificateAuthority = ""
    }

    /// Runs `command`; the process's exit status (2: the server address or
    /// login cannot be used).
    static func run(_ command: Command, login: Login) -> Int32 {
        let address: String
        switch command {
        case .list(let server), .get(let server, _): address = server
        }
        let server: OpenRosaServer
        do {
            server = try OpenRosaServer(address, user: login.user, certificateAuthority: login.certificateAuthority)
        } catch {
            Terminal.error(error.message)
            return 2
        }
        var password: String?
        if login.askPassword {
            guard let typed = Terminal.readPassword(prompt: tr("Password for %@ on %@: ", login.user, server.displayName)), !typed.isEmpty else {
                Terminal.error(tr("No password was given on standard input."))
                return 2
            }
            guard server.mayReceivePassword else {
                Terminal.error(tr("%@ asks for a password, which Survey Form sends only over a secure connection (https://): over http:// anyone on the way could read it.", server.displayName))
                return 2
            }
            password = typed
        } else if !login.user.isEmpty {
            // The login kept when the user gave it before, as the window uses it.
            do {
                password = try Keyring.password(forOpenRosa: server)
            } catch {
                Terminal.error(tr("The kept password cannot be read, so the forms are asked for without it: %@", error.localizedDescription))
            }
        }
        let library = DataLocation.formLibrary
        let secret = password
        let outcome = Terminal.waitFor { () async throws -> Int32 in
            try await OpenRosaClient.with(server, password: secret) { client in
                let forms = try await client.formList()
                if let secret, login.askPassword {
                    // The login that brought the forms sends their responses.
                    do {
                        try Keyring.store(secret, forOpenRosa: server)
                    } catch {
                        Terminal.error(tr("The password is not kept, so responses cannot be sent with it: %@", error.localizedDescription))
                    }
                }
                switch command {
                case .list:
                    list(forms, library: library, server: server)
                    return 0
                case .get(_, let formID):
                    return await get(forms, only: formID, library: library, client: client)
                }
            }
        }
        switch outcome {
        case .success(let status):
            return status
        case .failure(let error):
            Terminal.error(error.localizedDescription)
            return 1
        }
    }

    private static func list(_ forms: [ServerForm], library: FormLibrary, server: OpenRosaServer) {
        if forms.isEmpty { Terminal.say(tr("%@ offers no forms.", server.displayName)) }
        for form in forms {
            let state = switch library.state(of: form, from: server) {
            case .absent: tr("not downloaded")
            case .outdated: tr("changed on the server")
            case .current: tr("downloaded")
            }
            let version = form.version.map { ", " + tr("version %@", $0) } ?? ""
            Terminal.say("\(form.formID): \(form.name)\(version) (\(state))")
        }
    }

    /// Downloads each form (or the one named), going on past a form that
    /// fails; 1 when any did.
    private static func get(_ forms: [ServerForm], only formID: String?, library: FormLibrary, client: OpenRosaClient) async -> Int32 {
        let chosen = forms.filter { formID == nil || $0.formID == formID }
        if let formID, chosen.isEmpty {
            Terminal.error(tr("%@ offers no form with the id %@.", client.server.displayName, formID))
            return 1
        }
        var status: Int32 = 0
        for form in chosen {
            do {
                let download = try await library.download(form, with: client)
                let media = download.mediaFetched > 0 ? " " + tr("(%@ media files fetched)", String(download.mediaFetched)) : ""
                Terminal.say(download.isNewVersion
                    ? tr("%@: downloaded to %@", form.formID, download.file.path) + media
                    : tr("%@: up to date at %@", form.formID, download.file.path) + media)
            } catch {
                Terminal.error(error.message)
                status = 1
            }
        }
        return status
    }
}
