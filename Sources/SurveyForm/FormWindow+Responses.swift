import CAdw
import CTwoWayBindingGtkShims
import FormEngine
import Foundation
import SurveyStorage
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
        while let child = gtk_widget_get_first_child(box) { gtk_box_remove(box.cast(to: GtkBox.self), child) }
        responseHandlers = []
        guard !newest.isEmpty else {
            let empty = adw_status_page_new()!
            adw_status_page_set_icon_name(OpaquePointer(empty), "document-edit-symbolic")
            adw_status_page_set_title(OpaquePointer(empty), tr("No Responses Yet"))
            adw_status_page_set_description(OpaquePointer(empty), tr("Submitted responses to this form are listed here."))
            gtk_widget_add_css_class(empty, "compact")
            gtk_box_append(box.cast(to: GtkBox.self), empty)
            return
        }
        let group = adw_preferences_group_new()!
        adw_preferences_group_set_title(
            group.cast(to: AdwPreferencesGroup.self),
            String(format: trn("%d Stored Response", "%d Stored Responses", total), Int32(total))
        )
        if total > newest.count {
            adw_preferences_group_set_description(
                group.cast(to: AdwPreferencesGroup.self),
                String(format: tr("The %d newest are listed; export the responses to see them all."), Int32(Self.listedResponses))
            )
        }
        for response in newest {
            adw_preferences_group_add(group.cast(to: AdwPreferencesGroup.self),
                                      responseRow(response, delivery: deliveries[response.instanceID]))
        }
        gtk_box_append(box.cast(to: GtkBox.self), group)
    }

    private func responseRow(_ response: FormResponse, delivery: Delivery?) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        let title = Self.dateFormatter.string(from: response.submittedAt)
        adw_preferences_row_set_title(row.cast(to: AdwPreferencesRow.self), title)
        adw_preferences_row_set_use_markup(row.cast(to: AdwPreferencesRow.self), TWB_FALSE)
        var subtitle: [String] = []
        if let first = response.answers.first(where: { !$0.value.isEmpty }) { subtitle.append(String(first.value.prefix(80))) }
        if SyncService.shared.status.value.server != nil, let delivery {
            subtitle.append(SyncService.describe(delivery.state, lastError: delivery.lastError))
        }
        if !subtitle.isEmpty {
            adw_action_row_set_subtitle(row.cast(to: AdwActionRow.self), subtitle.joined(separator: "\n"))
        }
        gtk_list_box_row_set_activatable(row.cast(to: GtkListBoxRow.self), TWB_TRUE)
        let delete = gtk_button_new_from_icon_name("user-trash-symbolic")!
        gtk_widget_add_css_class(delete, "flat")
        gtk_widget_set_valign(delete, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(delete, tr("Delete Response"))
        (try? Widget.wrapping(delete))?.accessibleLabel = String(format: tr("Delete the response of %@"), title)
        adw_action_row_add_suffix(row.cast(to: AdwActionRow.self), delete)
        responseHandlers.append(Signal.connect(row, signal: "activated") { [weak self] in self?.showResponse(response) })
        responseHandlers.append(Signal.connect(delete, signal: "clicked") { [weak self] in self?.delete(response) })
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
        let dialog = adw_message_dialog_new(
            gtkWindow, String(format: tr("Response of %@"), Self.dateFormatter.string(from: response.submittedAt)),
            lines.joined(separator: "\n")
        )!
        let messageDialog = dialog.cast(to: AdwMessageDialog.self)
        adw_message_dialog_add_response(messageDialog, "close", tr("_Close"))
        adw_message_dialog_set_default_response(messageDialog, "close")
        adw_message_dialog_set_close_response(messageDialog, "close")
        gtk_window_present(dialog.cast(to: GtkWindow.self))
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
            over: gtkWindow, suggestedName: "\(form.id)-responses.csv",
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
