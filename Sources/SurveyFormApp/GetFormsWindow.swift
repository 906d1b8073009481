import FormEngine
import Foundation
import OpenRosa
import SurveySync
import TwoWayBinding
import TwoWayBindingAdw
import TwoWayBindingGtk

/// Get Forms: lists the forms an OpenRosa server offers, downloads the
/// ones ticked into the form library (`FormLibrary`, as `--get-forms`
/// does), and opens one. The address, user and certificate authority
/// start as those of the last server forms came from; a password that
/// listed the forms is kept in the keyring, for sending their responses.
/// The network and the keyring are used off the main thread; one request
/// at a time.
@MainActor
final class GetFormsWindow {
    private let window: Window
    private let address = Observable("")
    private let user = Observable("")
    private let password = Observable("")
    private let certificateAuthority = Observable("")
    private let statusLabel: Label
    private let formList: ListBox
    private let listButton: Button
    private let downloadButton: Button
    private let open: (String) -> Void
    /// The forms listed, each with its tick box and row.
    private var listed: [(form: ServerForm, tick: CheckButton, row: ActionRow)] = []
    /// The server and password the forms were listed with.
    private var listedFrom: (server: OpenRosaServer, password: String?)?
    private var isBusy = false {
        didSet { updateButtons() }
    }
    private let bag = ObservationToken.Bag()
    /// The one open, kept alive while it is.
    private static var shown: GetFormsWindow?

    /// Shows the window over `parent`; `open` opens a downloaded form's file.
    static func present(over parent: Window?, open: @escaping (String) -> Void) {
        if let shown {
            shown.window.present()
            return
        }
        let getForms = GetFormsWindow(parent: parent, open: open)
        shown = getForms
        getForms.window.present()
    }

    private init(parent: Window?, open: @escaping (String) -> Void) {
        self.open = open
        if let last = DataLocation.formLibrary.servers.first {
            address.value = last.url.absoluteString
            user.value = last.user
            certificateAuthority.value = last.certificateAuthority
        }
        do {
            let builder = try Builder(resource: "\(AppInfo.resourceBase)/ui/get-forms-window.ui")
            window = try builder.object("getFormsWindow", as: Window.self)
            // AdwEntryRow and AdwPasswordEntryRow are GtkEditables.
            try builder.object("addressRow", as: Entry.self).bind(with: address)
            try builder.object("userRow", as: Entry.self).bind(with: user)
            try builder.object("passwordRow", as: Entry.self).bind(with: password)
            try builder.object("certificateAuthorityRow", as: Entry.self).bind(with: certificateAuthority)
            statusLabel = try builder.object("statusLabel", as: Label.self)
            formList = try builder.object("formList", as: ListBox.self)
            listButton = try builder.object("listButton", as: Button.self)
            downloadButton = try builder.object("downloadButton", as: Button.self)
        } catch {
            // The interface is compiled into the binary: this is a build defect.
            fatalError("the Get Forms window's interface cannot be built: \(error)")
        }
        listButton.onClicked { [weak self] in self?.listForms() }.store(in: bag)
        downloadButton.onClicked { [weak self] in self?.downloadTicked() }.store(in: bag)
        window.standOver(parent)
        window.onDestroy { Self.shown = nil }.store(in: bag)
    }

    private func say(_ message: String) {
        statusLabel.text = message
        statusLabel.isVisible = !message.isEmpty
    }

    private func updateButtons() {
        listButton.isSensitive = !isBusy
        downloadButton.isSensitive = !isBusy && listed.contains { $0.tick.isChecked }
    }

    /// Reads the server's form list and shows a row per form, ticked when
    /// it is not here or changed on the server.
    private func listForms() {
        guard !isBusy else { return }
        let server: OpenRosaServer
        do {
            server = try OpenRosaServer(address.value,
                                        user: user.value.trimmingCharacters(in: .whitespaces),
                                        certificateAuthority: certificateAuthority.value.trimmingCharacters(in: .whitespaces))
        } catch {
            say(error.message)
            return
        }
        let typed = password.value.isEmpty ? nil : password.value
        if typed != nil, !server.mayReceivePassword {
            say(String(format: tr("%@ asks for a password, which Survey Form sends only over a secure connection (https://): over http:// anyone on the way could read it."), server.displayName))
            return
        }
        isBusy = true
        say(String(format: tr("Asking %@ for its forms…"), server.displayName))
        Task {
            let outcome = await Task.detached { () -> Result<(forms: [ServerForm], password: String?), OpenRosaError> in
                do {
                    let password = try typed ?? Keyring.password(forOpenRosa: server)
                    let forms = try await OpenRosaClient.with(server, password: password) { try await $0.formList() }
                    // The login that listed the forms sends their responses.
                    if let typed { try? Keyring.store(typed, forOpenRosa: server) }
                    return .success((forms, password))
                } catch let error as OpenRosaError {
                    return .failure(error)
                } catch {
                    return .failure(OpenRosaError(error.localizedDescription, kind: .local))
                }
            }.value
            isBusy = false
            switch outcome {
            case .success(let found):
                listedFrom = (server, found.password)
                show(found.forms, from: server)
            case .failure(let error):
                say(error.message)
            }
        }
    }

    private func show(_ forms: [ServerForm], from server: OpenRosaServer) {
        formList.removeAll()
        listed = []
        let library = DataLocation.formLibrary
        for form in forms {
            let state: String
            var ticked = true
            switch library.state(of: form, from: server) {
            case .absent: state = tr("not downloaded")
            case .outdated: state = tr("changed on the server")
            case .current:
                state = tr("downloaded")
                ticked = false
            }
            let version = form.version.map { " · " + String(format: tr("version %@"), $0) } ?? ""
            let row = ActionRow(title: form.name, subtitle: form.formID + version + " · " + state)
            let tick = CheckButton()
            tick.isChecked = ticked
            tick.accessibleLabel = form.name
            row.addSuffix(tick)
            tick.observeUserChanges { [weak self] _ in self?.updateButtons() }.store(in: bag)
            formList.append(row.widget)
            listed.append((form, tick, row))
        }
        formList.isVisible = !forms.isEmpty
        say(forms.isEmpty ? String(format: tr("%@ offers no forms."), server.displayName)
            : String(format: trn("%d form on %@.", "%d forms on %@.", forms.count), Int32(forms.count), server.displayName))
        updateButtons()
    }

    /// Downloads the ticked forms one after the other, going on past one
    /// that fails; each downloaded row gets an Open button.
    private func downloadTicked() {
        guard !isBusy, let listedFrom else { return }
        let chosen = listed.filter { $0.tick.isChecked }
        guard !chosen.isEmpty else { return }
        isBusy = true
        say(String(format: trn("Downloading %d form…", "Downloading %d forms…", chosen.count), Int32(chosen.count)))
        let library = DataLocation.formLibrary
        let forms = chosen.map(\.form)
        Task {
            let outcomes = await Task.detached { () -> [Result<FormLibrary.Download, OpenRosaError>] in
                do {
                    return try await OpenRosaClient.with(listedFrom.server, password: listedFrom.password) { client in
                        var outcomes: [Result<FormLibrary.Download, OpenRosaError>] = []
                        for form in forms {
                            do {
                                outcomes.append(.success(try await library.download(form, with: client)))
                            } catch {
                                outcomes.append(.failure(error as? OpenRosaError ?? OpenRosaError(error.localizedDescription, kind: .local)))
                            }
                        }
                        return outcomes
                    }
                } catch {
                    return forms.map { _ in .failure(OpenRosaError(error.localizedDescription, kind: .local)) }
                }
            }.value
            isBusy = false
            var problems: [String] = []
            for (entry, outcome) in zip(chosen, outcomes) {
                switch outcome {
                case .success(let download):
                    entry.tick.isChecked = false
                    let path = download.file.path
                    let button = Button(label: tr("Open"))
                    button.accessibleLabel = String(format: tr("Open %@"), entry.form.name)
                    let open = open
                    button.onClicked { [weak self] in
                        // Closing ends this window's object: the form opens through its own reference.
                        self?.window.close()
                        open(path)
                    }.store(in: bag)
                    entry.row.addSuffix(button)
                case .failure(let error):
                    problems.append(error.message)
                }
            }
            let done = outcomes.count - problems.count
            let summary = String(format: trn("Downloaded %d form.", "Downloaded %d forms.", done), Int32(done))
            say(([summary] + problems).joined(separator: "\n"))
            updateButtons()
        }
    }
}
