import CGtk
import Foundation
import SurveyModel
import SurveyStorage

/// The sidebar's list of stored responses, newest first.
extension SurveyWindow {
    /// The most rows the list shows; the heading counts them all.
    static let listedResponseLimit = 200

    func refreshResponses() {
        // A respondent never sees earlier answers, so they are not even read.
        guard !isKiosk else { return }
        removeAllRows()
        guard let store else {
            responsesHeadingLabel.text = tr("Stored responses are unavailable")
            return
        }
        do {
            let responses = try store.newestFirst()
            responsesHeadingLabel.text = String(
                format: trn("%d stored response", "%d stored responses", responses.count), Int32(responses.count)
            )
            for response in responses.prefix(Self.listedResponseLimit) {
                appendRow(Self.rowText(for: response))
            }
            if responses.count > Self.listedResponseLimit {
                appendRow(String(format: tr("…and %d older"), Int32(responses.count - Self.listedResponseLimit)))
            }
        } catch {
            responsesHeadingLabel.text = error.localizedDescription
        }
    }

    static func rowText(for response: SurveyResponse) -> String {
        let formatter = DateFormatter()
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        let company = response.answers.companyName.isEmpty ? "" : " — \(response.answers.companyName)"
        return "\(response.answers.name)\(company)\n\(formatter.string(from: response.submittedAt))"
    }

    private func appendRow(_ text: String) {
        let label = gtk_label_new(text)!
        gtk_label_set_xalign(OpaquePointer(label), 0)
        gtk_label_set_wrap(OpaquePointer(label), SF_TRUE)
        gtk_widget_set_margin_top(label, 6)
        gtk_widget_set_margin_bottom(label, 6)
        gtk_widget_set_margin_start(label, 8)
        gtk_widget_set_margin_end(label, 8)
        gtk_list_box_append(OpaquePointer(responsesListBox), label)
    }

    private func removeAllRows() {
        let listBox = OpaquePointer(responsesListBox)
        while let row = gtk_widget_get_first_child(responsesListBox) {
            gtk_list_box_remove(listBox, row)
        }
    }
}
