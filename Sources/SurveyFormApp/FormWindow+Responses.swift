import FormEngine
import Foundation
import SurveyStorage
import TwoWayBindingAdw
import TwoWayBindingGtk

/// The form's stored responses below it (none in kiosk mode): the newest in a
/// boxed list, each opened read-only or deleted with Undo; an empty state
/// when there are none. And the menu's export of this form's responses.
extension FormWindow {
    /// How many responses the list shows; the export has them all.
    static let listedResponses = 50

    /// Reads the newest responses again, off the main thread, and rebuilds
    /// the list when they arrive (a later reading wins over an earlier one).
    func reloadResponses() {
        guard responsesBox != nil else { return }
        guard let store else {
            showResponses([], total: 0, deliveries: [:])
            return
        }
        let formID = form.id, limit = Self.listedResponses
        responsesReading.start({ () throws -> (newest: [FormResponse], total: Int, deliveries: [String: Delivery]) in
            let read = try store.newestResponses(toForm: formID, limit: limit)
            return (read.newest, read.total, try store.deliveries(of: read.newest.map(\.instanceID)))
        }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let read):
                showResponses(read.newest, total: read.total, deliveries: read.deliveries)
            case .failure(let error):
                showStatus(error.localizedDescription, isError: true)
                showResponses([], total: 0, deliveries: [:])
            }
        })
    }

    /// Shows `newest` (newest first) of `total` stored responses, with where
    /// each stands on its way to the server when one is set.
    private func showResponses(_ newest: [FormResponse], total: Int, deliveries: [String: Delivery]) {
        guard let box = responsesBox else { return }
        box.removeAll()
        responseRowsBag.cancelAll()
        guard !newest.isEmpty else {
            let empty = StatusPage(
                iconName: "document-edit-symbolic", title: tr("No Responses Yet"),
                description: tr("Submitted responses to this form are listed here."), compact: true
            )
            box.append(empty.widget)
            return
        }
        let group = PreferencesGroup(
            title: String(format: trn("%d Stored Response", "%d Stored Responses", total), Int32(total)),
            description: total > newest.count
                ? String(format: tr("The %d newest are listed; export the responses to see them all."), Int32(Self.listedResponses))
                : ""
        )
        for response in newest {
            group.add(responseRow(response, delivery: deliveries[response.instanceID]))
        }
        box.append(group.widget)
    }

    private func responseRow(_ response: FormResponse, delivery: Delivery?) -> ActionRow {
        let title = Self.dateFormatter.string(from: response.submittedAt)
        var subtitle: [String] = []
        if let first = response.answers.first(where: { !$0.value.isEmpty }) { subtitle.append(String(first.value.prefix(80))) }
        if SyncService.shared.status.value.server != nil, let delivery {
            subtitle.append(SyncService.describe(delivery.state, lastError: delivery.lastError))
        }
        let row = ActionRow(title: title, subtitle: subtitle.joined(separator: "\n"))
        let delete = Button(iconName: "user-trash-symbolic", tooltip: tr("Delete Response"))
        // The tooltip names the button's purpose; its name says which response.
        delete.accessibleLabel = String(format: tr("Delete the response of %@"), title)
        row.addSuffix(delete)
        row.onActivated { [weak self] in self?.showResponse(response) }.store(in: responseRowsBag)
        delete.onClicked { [weak self] in self?.delete(response) }.store(in: responseRowsBag)
        return row
    }

    /// A stored response, read-only: each answer under its question's label.
    private func showResponse(_ response: FormResponse) {
        let language = viewModel.language.value
        var labels: [String: String] = [:]
        for question in form.definition.allQuestions {
            labels[question.pathString] = question.label.text(in: language)
        }
        let lines = response.answers.map { answer -> String in
            // `member[2]/age` is the question `member/age`, second member.
            let template = answer.path.replacing(/\[\d+\]/, with: "")
            let label = labels[template].flatMap { $0.isEmpty ? nil : $0 } ?? answer.path
            let position = answer.path.contains("[") ? " (\(answer.path.split(separator: "/").dropLast().joined(separator: "/")))" : ""
            return "\(label)\(position): \(answer.value.isEmpty ? "–" : answer.value)"
        }
        let dialog = MessageDialog(
            over: window, heading: String(format: tr("Response of %@"), Self.dateFormatter.string(from: response.submittedAt)),
            body: lines.joined(separator: "\n")
        )
        dialog.addResponse("close", label: tr("_Close"))
        dialog.defaultResponse = "close"
        dialog.closeResponse = "close"
        dialog.present()
    }

    /// Deletes a stored response; the toast's Undo stores it again.
    private func delete(_ response: FormResponse) {
        guard removeStored(response) else { return }
        showStatus(tr("Response deleted"), isError: false)
        showToast(tr("Response deleted"), undo: { [weak self] in
            guard let self, let store = self.store else { return }
            var restored = response
            restored.id = nil
            // The list follows the store's ResponseStored; a failure comes as its StorageFailed.
            if (try? store.insert(restored)) != nil {
                showStatus(tr("The response was stored again."), isError: false)
            }
        })
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

    private static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        return formatter
    }()
}
