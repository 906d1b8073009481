import FormEngine
import Foundation
import SurveyStorage
import TwoWayBindingAdw

/// Editing a stored response: its answers and files come into the form
/// under a new instance id, and Submit stores a new revision naming the one
/// it replaces (`deprecatedID`), which stays in the store as history and
/// reaches the server before it. *Cancel Edit* leaves the stored response
/// as it was. An edit is crash-safe as any response is: its draft names the
/// revision it replaces.
extension FormWindow {
    struct EditedRevision: Equatable {
        let instanceID: String
        /// What the list calls it; blank when only its id is known (an edit
        /// restored from its draft).
        let title: String
    }

    /// The header's line while `edited` is edited.
    static func editingLine(_ edited: EditedRevision) -> String {
        edited.title.isEmpty ? tr("Editing a stored response")
            : String(format: tr("Editing the response of %@"), edited.title)
    }

    /// Whether `response` may be edited here: a response to this version of
    /// the form (its answers are this version's questions), in a store
    /// that may be written. A form that encrypts its responses takes none,
    /// as in ODK Collect: its server cannot read an edit as one.
    func canEdit(_ response: FormResponse) -> Bool {
        guard let store, !store.isReadOnly, !isKiosk, form.definition.settings.publicKey == nil else { return false }
        return response.formID == form.id && response.formVersion == form.version
    }

    /// Edits `response`; when the form holds answers not yet submitted,
    /// asks first, since the edit takes their place.
    func edit(_ response: FormResponse, titled title: String) {
        guard hasAnswersInProgress else { return beginEditing(response, titled: title) }
        let dialog = MessageDialog(
            over: window, heading: tr("Replace the Answers Being Filled In?"),
            body: tr("The form holds answers that were not submitted. The stored response's answers take their place, and these are lost.")
        )
        dialog.addResponse("cancel", label: tr("_Cancel"))
        dialog.addResponse("replace", label: tr("_Replace"), appearance: .destructive)
        dialog.defaultResponse = "cancel"
        dialog.closeResponse = "cancel"
        dialog.present { [weak self] answer in
            if answer == "replace" { self?.beginEditing(response, titled: title) }
        }
    }

    /// Answers typed and not submitted: a draft of them is kept (the
    /// autosave's pending one written first), or an edit is under way.
    private var hasAnswersInProgress: Bool {
        if editedRevision != nil { return true }
        autosave.flush()
        return FileManager.default.fileExists(atPath: drafts.url(formID: form.id, version: form.version).path)
    }

    private func beginEditing(_ response: FormResponse, titled title: String) {
        renderer.tearDown()
        replacingAnswers {
            // A new instance id: the edit is a response of its own.
            viewModel.reset()
            viewModel.restore(response.answers.map { ($0.path, $0.value) })
        }
        // Its files under the names its answers give them, in the edit's own
        // folder: the revision it replaces keeps its own.
        var missing: [String] = []
        do {
            missing = try attachments.carry(response.attachmentNames, from: response.instanceID, to: viewModel.instanceID)
        } catch {
            missing = response.attachmentNames
        }
        startedAt = response.startedAt
        editedRevision = EditedRevision(instanceID: response.instanceID, title: title)
        audit?.clear()
        audit?.record("form resume", at: Date())
        renderer = makeRenderer()
        renderer.focusFirstQuestion()
        // Crash-safe from the first moment, as the draft of any response.
        do {
            try saveDraft()
        } catch {
            showStatus(error.localizedDescription, isError: true)
            return
        }
        let news = String(format: tr("Editing the response of %@: Submit saves the changes as a new revision, and the response as it was stays in its history."), title)
        if missing.isEmpty {
            showStatus(news, isError: false)
        } else {
            showStatus(news + "\n" + String(format: tr("These files of the response are missing: %@. Choose them again, or remove them."),
                                            missing.joined(separator: ", ")), isError: true)
        }
    }

    /// Leaves the edit: the form starts a new response, and the stored one
    /// stays as it was.
    func cancelEditing() {
        guard let edited = editedRevision else { return }
        let copies = viewModel.instanceID
        startNewResponse()
        autosave.cancel()
        do {
            try drafts.discard(formID: form.id, version: form.version)
        } catch {
            showStatus(error.localizedDescription, isError: true)
            return
        }
        // The files copied for the edit; the stored response keeps its own.
        try? attachments.keepOnly([], instanceID: copies)
        showStatus(edited.title.isEmpty ? tr("The edit was cancelled: the stored response is as it was.")
            : String(format: tr("The edit was cancelled: the response of %@ is as it was."), edited.title), isError: false)
    }
}
