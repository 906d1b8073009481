import Foundation
import SurveyModel
import SurveyStorage
import TwoWayBinding
import TwoWayBindingGtk

/// The sidebar's list of stored responses, newest first: every one of them,
/// read off the main thread and shown lazily (GTK makes rows only for those
/// in view), so that 100,000 responses cost the window no frame.
extension SurveyWindow {
    func showResponsesList() {
        guard !isKiosk else { return }
        responsesListView.show(listedResponses, makeRow: { () -> Label in
            let label = Label()
            label.wrapsWords = true
            label.setMargins(top: 6, bottom: 6, start: 8, end: 8)
            return label
        }, bindRow: { row, response, _ in
            row.text = Self.rowText(for: response)
        })
        .store(in: bag)
    }

    /// Where the responses stand on their way to the server, under the
    /// list's heading, and each response's state in its row (neither while
    /// no server is set, nor in kiosk mode).
    func showDelivery() {
        guard !isKiosk else { return }
        SyncService.shared.show(in: syncStatusLabel)
        SyncService.shared.roundsFinished.observe { [weak self] _ in self?.refreshResponses() }.store(in: bag)
    }

    /// Reads the stored responses once the window has drawn its first frame,
    /// so that reading 100,000 of them takes no time from it (on two cores
    /// the reading thread competes with the drawing for the CPU).
    func refreshResponsesAfterFirstFrame() {
        window.onFirstFrame { [weak self] in self?.refreshResponses() }.store(in: bag)
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
        responsesReading.start({ try store.listing() }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let listed):
                listedResponses.replaceAll(with: listed)
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
    func showStored(_ response: SurveyResponse) {
        guard !isKiosk, let id = response.id,
              // A draft restored after a crash may be one already stored.
              let position = ListedResponse.position(of: id, submittedAt: response.submittedAt, in: listedResponses)
        else { return }
        listedResponses.insert(
            ListedResponse(id: id, name: response.answers.name, companyName: response.answers.companyName,
                           submittedAt: response.submittedAt, delivery: .waiting),
            at: position
        )
        updateResponsesHeading()
    }

    private func updateResponsesHeading() {
        let count = listedResponses.count
        responsesHeadingLabel.text = String(format: trn("%d stored response", "%d stored responses", count), Int32(count))
    }

    static func rowText(for response: ListedResponse) -> String {
        let company = response.companyName.isEmpty ? "" : " — \(response.companyName)"
        let text = "\(response.name)\(company)\n\(rowDateFormatter.string(from: response.submittedAt))"
        guard SyncService.shared.status.value.server != nil, let delivery = response.delivery else { return text }
        return text + "\n" + SyncService.describe(delivery, lastError: response.deliveryError)
    }

    // One formatter for every row: making one costs more than using it.
    private static let rowDateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        return formatter
    }()
}
