import FormEngine
import Foundation
import SurveyStorage
import TwoWayBinding
import TwoWayBindingAdw
import TwoWayBindingGtk

/// The form's stored responses beside it (none in kiosk mode), newest
/// first: every one of them, read off the main thread and shown lazily (GTK
/// makes rows only for those in view), so that 100,000 responses cost the
/// window no frame. A row opens its response read-only, with Edit (see
/// `FormWindow+Editing`); its button deletes it, with Undo. And the menu's
/// export of this form's responses.
extension FormWindow {
    func showResponsesList() {
        guard !isKiosk else { return }
        // Two buttons a row, both reached with Tab (GTK 4.8's list view
        // gives Tab to a row's buttons, not to the row): the response, which
        // opens it, and Delete.
        responsesListView.show(listedResponses, makeRow: { () -> Box in
            let row = Box(vertical: false, spacing: 6)
            // Its lines end in "…" rather than wrap: GTK 4.8 measures every
            // row it keeps again after any change to the list, and a wrapping
            // label costs it a dozen text layouts each time (measured: typing
            // while 100,000 responses were being listed held frames 100 ms).
            let label = Label()
            label.ellipsizesLines = true
            let open = Button(child: label)
            open.addStyleClass("flat")
            open.expandsHorizontally = true
            row.append(open)
            row.append(Button(iconName: "user-trash-symbolic", tooltip: tr("Delete Response")))
            return row
        }, bindRow: { [weak self] row, response, rowBag in
            let buttons = row.children(ofType: Button.self)
            guard let self, buttons.count == 2, let label = buttons[0].children(ofType: Label.self).first else { return }
            let (open, delete) = (buttons[0], buttons[1])
            label.text = Self.rowText(for: response)
            // Their names say which response; the row's text is the label's.
            let title = Self.rowTitle(for: response)
            open.accessibleLabel = String(format: tr("Open the response of %@"), title)
            delete.accessibleLabel = String(format: tr("Delete the response of %@"), title)
            open.onClicked { [weak self] in self?.showResponse(response) }.store(in: rowBag)
            delete.onClicked { [weak self] in self?.delete(response) }.store(in: rowBag)
        })
        .store(in: bag)
    }

    /// Takes the store and reads the stored responses once the window has
    /// drawn its first frame, so that neither the database's check nor the
    /// reading of 100,000 responses takes time from it (on two cores their
    /// threads compete with the drawing for the CPU).
    func refreshResponsesAfterFirstFrame() {
        window.onFirstFrame { [weak self] in
            Task { [weak self] in
                await self?.storeOpened()
                self?.refreshResponses()
            }
        }
        .store(in: bag)
    }

    /// Reads the stored responses again, off the main thread; the list and
    /// its heading change when the reading arrives (a later reading wins).
    func refreshResponses() {
        // A respondent never sees earlier answers, so they are not even read.
        guard !isKiosk else { return }
        guard let store else {
            responsesHeadingLabel.text = tr("Stored responses are unavailable")
            return
        }
        let formID = form.id
        responsesReading.start({ try store.listing(ofForm: formID) }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let listed):
                // After a round of sending only the rows sent change: the
                // rest keep their rows in the view.
                listedResponses.update(to: listed)
                updateResponsesHeading()
            case .failure(let error):
                listedResponses.replaceAll(with: [])
                responsesHeadingLabel.text = error.localizedDescription
            }
        })
    }

    /// Puts a response just stored where it sorts (a new one at the top),
    /// without reading the others again: a submit costs the window one row,
    /// however many are listed.
    func showStored(_ response: FormResponse) {
        guard !isKiosk, response.formID == form.id, let id = response.id,
              // A draft restored after a crash may be one already stored.
              ListedResponse.position(of: id, submittedAt: response.submittedAt, in: listedResponses) != nil
        else { return }
        // An edit takes the place of the revision it replaces.
        if let replaced = response.deprecatedID, let index = listedResponses.firstIndex(where: { $0.instanceID == replaced }) {
            listedResponses.remove(at: index)
        }
        guard let position = ListedResponse.position(of: id, submittedAt: response.submittedAt, in: listedResponses) else { return }
        listedResponses.insert(ListedResponse(response), at: position)
        updateResponsesHeading()
    }

    private func updateResponsesHeading() {
        let count = listedResponses.count
        responsesHeadingLabel.text = String(format: trn("%d stored response", "%d stored responses", count), Int32(count))
    }

    /// What it is called (or, without a name, when it was submitted), when,
    /// and where it stands when a server is set.
    static func rowText(for response: ListedResponse) -> String {
        let date = rowDateFormatter.string(from: response.submittedAt)
        let text = response.title.isEmpty ? date : "\(response.title)\n\(date)"
        guard SyncService.shared.status.value.server != nil, let delivery = response.delivery else { return text }
        return text + "\n" + SyncService.describe(delivery, lastError: response.deliveryError)
    }

    static func rowTitle(for response: ListedResponse) -> String {
        response.title.isEmpty ? rowDateFormatter.string(from: response.submittedAt) : response.title
    }

    /// A stored response, read-only: each answer under its question's
    /// label, and Edit when this version of the form can edit it.
    private func showResponse(_ listed: ListedResponse) {
        guard let store else { return }
        let response: FormResponse
        do {
            guard let found = try store.response(id: listed.id) else { return }
            response = found
        } catch {
            showStatus(error.localizedDescription, isError: true)
            return
        }
        let language = viewModel.language.value
        var labels: [String: String] = [:]
        var calculated: Set<String> = []
        var questions: [String: Question] = [:]
        for question in form.definition.allQuestions {
            labels[question.pathString] = question.shownLabel(in: language)
            questions[question.pathString] = question
            if question.type == .calculate { calculated.insert(question.pathString) }
        }
        let notation = AnswerNotation.desktop
        let lines = response.answers.compactMap { answer -> String? in
            // `member[2]/age` is the question `member/age`, second member.
            let template = answer.path.replacing(/\[\d+\]/, with: "")
            // Calculations and the entity's id are the form's own workings, not answers.
            guard !calculated.contains(template), !answer.path.hasSuffix(FormViewModel.entityIDPath) else { return nil }
            let label = labels[template].flatMap { $0.isEmpty ? nil : $0 } ?? answer.path
            let position = answer.path.contains("[") ? " (\(answer.path.split(separator: "/").dropLast().joined(separator: "/")))" : ""
            // A time as it was typed, not with its stored milliseconds and
            // offset; a number or a day in the desktop's notation.
            let value = questions[template].map { notation.shown(answer.value, for: $0) } ?? answer.value
            return "\(label)\(position): \(value.isEmpty ? FormViewModel.unanswered : value)"
        }
        var body = lines.joined(separator: "\n")
        if response.deprecatedID != nil, let earlier = try? store.revisions(endingWith: response.instanceID).count - 1, earlier > 0 {
            body += "\n\n" + String(format: trn("Edited: %d earlier revision is kept.", "Edited: %d earlier revisions are kept.", earlier), Int32(earlier))
        }
        let editable = canEdit(response)
        if !editable, response.formVersion != form.version {
            body += "\n\n" + String(format: tr("It answers version %@ of the form: open that version to edit it."), response.formVersion)
        } else if form.definition.settings.publicKey != nil {
            body += "\n\n" + tr("The form encrypts its responses for its server, which takes no edit of one: it stays as it was sent.")
        }
        let dialog = MessageDialog(
            over: window, heading: String(format: tr("Response of %@"), Self.rowDateFormatter.string(from: response.submittedAt)),
            body: body
        )
        dialog.addResponse("close", label: tr("_Close"))
        if editable { dialog.addResponse("edit", label: tr("_Edit")) }
        dialog.defaultResponse = "close"
        dialog.closeResponse = "close"
        let title = Self.rowTitle(for: listed)
        dialog.present { [weak self] answer in
            if answer == "edit" { self?.edit(response, titled: title) }
        }
    }

    /// Deletes a stored response; the toast's Undo stores it again.
    private func delete(_ listed: ListedResponse) {
        // Stored again, it goes where it was going, as it was to be sent.
        let destination = (try? store?.destination(of: listed.instanceID)) ?? .sharedServer
        guard let response = removeStored(id: listed.id) else { return }
        showStatus(tr("Response deleted"), isError: false)
        showToast(tr("Response deleted"), undo: { [weak self] in
            guard let self, let store = self.store else { return }
            var restored = response
            restored.id = nil
            // The list follows the store's ResponseStored; a failure comes as its StorageFailed.
            if (try? store.insert(restored, for: destination)) != nil {
                showStatus(tr("The response was stored again."), isError: false)
            }
        })
    }

    /// Removes the stored response `id` from the database and the list;
    /// the response, or `nil` with the reason shown.
    func removeStored(id: Int64) -> FormResponse? {
        guard let store else { return nil }
        let removed: FormResponse?
        do {
            removed = try store.deleteResponse(id: id)
        } catch {
            showStatus(error.localizedDescription, isError: true)
            return nil
        }
        if let index = listedResponses.firstIndex(where: { $0.id == id }) {
            listedResponses.remove(at: index)
            updateResponsesHeading()
        }
        // An edit removed: the revision it replaced is listed again.
        if removed?.deprecatedID != nil { refreshResponses() }
        return removed
    }

    /// The menu's export of this form's responses, every version's.
    func chooseExportFile() {
        guard !isKiosk else { return }
        exportDialog.present(
            over: window, suggestedName: "\(form.id)-responses.csv",
            export: { [weak self] url in
                guard let self, let store else {
                    throw StorageError(tr("There are no responses to export: the response database could not be opened."))
                }
                // The file chooser has asked before replacing a file.
                return try CSVExport.export(from: store, form: form, to: url, replacing: true)
            },
            report: { [weak self] message, isError in self?.showStatus(message, isError: isError) }
        )
    }

    // One formatter for every row: making one costs more than using it.
    static let rowDateFormatter = DateFormatter.desktopMedium
}
