import Foundation
import OpenRosa
import SurveyStorage
import SurveySync
import TwoWayBinding
import TwoWayBindingGtk

/// Sends the outbox in the background while the app runs, as ODK Collect's
/// auto-send does: at start, after each submit, when a failed try's back-off
/// is over, and on *Send Now*. A round sends the responses to forms from
/// OpenRosa servers to those servers, then the rest to the shared
/// PostgreSQL server, if one is set. One round at a time, always off the
/// main thread (the keyring and the network both block), so the window
/// never waits on either. What it knows is in `status`, which the windows
/// show.
@MainActor
final class SyncService {
    static let shared = SyncService()

    /// What the windows show of delivery.
    struct Status: Equatable {
        /// The servers' names; `nil` when there is none to send to.
        var server: String?
        var summary = DeliverySummary()
        var isSending = false
        /// Why the last round stopped short, if it did.
        var failure: String?
        /// A form server whose login or certificate stopped its responses,
        /// which the windows offer to mend in Preferences.
        var serverToMend: ServerToMend?
    }

    /// A form server, by its address, and what of its settings to change.
    struct ServerToMend: Equatable, Sendable {
        var address: String
        /// The certificate authority (its certificate was not trusted, or
        /// the authority's file is gone), else the login.
        var certificate: Bool
    }

    let status = Observable(Status())
    /// Counts finished rounds: the windows read their lists again after
    /// each, to show each response's state.
    let roundsFinished = Observable(0)

    private var isRunning = false
    private var wantsAnotherRound = false
    private var wantsForcedRound = false
    private var retryTimer: Task<Void, Never>?

    private init() {}

    /// Sends what is due, once the first window has had the CPU for its
    /// first frame: the round finds which servers there are.
    func start() {
        let settings = Settings.shared.server
        let shared = settings.problem == nil ? settings : nil
        if let shared { status.value = Status(server: shared.displayName) }
        // The servers forms came from are known before the first round ends,
        // so that the window shows where its responses stand from the start
        // (its rows do not grow a line each when the round ends); the form
        // library is read off the main thread.
        let library = DataLocation.formLibrary
        Task {
            let names = await Task.detached { Self.serverNames(shared: shared, library: library) }.value
            if roundsFinished.value == 0, !names.isEmpty { status.value.server = names.joined(separator: ", ") }
        }
        send(after: 1)
    }

    /// The servers responses go to: each server forms came from, by name,
    /// then the shared server.
    nonisolated private static func serverNames(shared: ServerSettings?, library: FormLibrary) -> [String] {
        library.servers.map(\.displayName).sorted() + (shared.map { [$0.displayName] } ?? [])
    }

    /// The server settings changed (Preferences): shows the new server, or
    /// none, and sends everything queued to it at once.
    func settingsChanged() {
        sendSoon(ignoringBackoff: true)
    }

    /// Shows a problem found outside a round (the keyring refused a password).
    func report(problem: String) {
        status.value.failure = problem
    }

    /// Starts a round after `delay` seconds: a form's submit waits out its
    /// Undo, so that a response taken back is not on the server already.
    func send(after delay: TimeInterval) {
        Task { [weak self] in
            try? await Task.sleep(for: .seconds(delay))
            self?.sendSoon()
        }
    }

    /// Starts a round now, or right after the one under way. `ignoringBackoff`
    /// also sends responses waiting out a failed try (*Send Now*).
    func sendSoon(ignoringBackoff: Bool = false) {
        let saved = Settings.shared.server
        let shared = saved.problem == nil ? saved : nil
        if isRunning {
            wantsAnotherRound = true
            wantsForcedRound = wantsForcedRound || ignoringBackoff
            return
        }
        isRunning = true
        retryTimer?.cancel()
        var shown = status.value
        if shown.server != nil || shared != nil {
            shown.server = shown.server ?? shared?.displayName
            shown.isSending = true
            status.value = shown
        }
        let directory = DataLocation.dataDirectory
        let library = DataLocation.formLibrary
        Task {
            let round = await Task.detached {
                await Self.round(in: directory, library: library, shared: shared, ignoringBackoff: ignoringBackoff)
            }.value
            self.finishRound(round)
        }
    }

    /// What a round did: the servers it had responses for, the outbox
    /// after it, and why it stopped short.
    private struct Round: Sendable {
        var servers: [String] = []
        var summary: DeliverySummary?
        var failure: String?
        var serverToMend: ServerToMend?
    }

    /// Sends to each OpenRosa server the outbox holds responses for, then
    /// to the shared server. Off the main thread: the form library's folders
    /// are read here too.
    nonisolated private static func round(
        in directory: URL, library: FormLibrary, shared: ServerSettings?, ignoringBackoff: Bool
    ) async -> Round {
        var round = Round()
        // Without a shared server or a form from an OpenRosa server there
        // is nowhere to send, and the store is left alone.
        guard shared != nil || !library.servers.isEmpty else { return round }
        round.servers = serverNames(shared: shared, library: library)
        do {
            let store = try ResponseStore(directory: directory)
            var failures: [String] = []
            for destination in try store.openRosaDestinations() {
                guard let server = library.server(at: destination) else { continue }
                if !round.servers.contains(server.displayName) { round.servers.append(server.displayName) }
                do {
                    let password = try Keyring.password(forOpenRosa: server)
                    let report = await OpenRosaSender(store: store, server: server, password: password)
                        .sendDue(ignoringBackoff: ignoringBackoff)
                    if let failure = report.failure {
                        failures.append(failure.message)
                        if round.serverToMend == nil, failure.kind == .refusedLogin || failure.kind == .certificate {
                            round.serverToMend = ServerToMend(address: destination, certificate: failure.kind == .certificate)
                        }
                    }
                } catch {
                    failures.append(error.localizedDescription)
                }
            }
            if let shared {
                let password = try Keyring.password(for: shared)
                let report = await OutboxSender(store: store, settings: shared, password: password)
                    .sendDue(ignoringBackoff: ignoringBackoff)
                if let failure = report.failure { failures.append(failure.message) }
            }
            round.summary = try? store.deliverySummary()
            round.failure = failures.first
        } catch {
            round.failure = error.localizedDescription
        }
        return round
    }

    private func finishRound(_ round: Round) {
        isRunning = false
        let server = round.servers.isEmpty ? nil : round.servers.joined(separator: ", ")
        var shown = Status(server: server, summary: round.summary ?? status.value.summary)
        shown.failure = round.failure
        shown.serverToMend = round.serverToMend
        status.value = shown
        roundsFinished.value += 1
        if wantsAnotherRound {
            let forced = wantsForcedRound
            wantsAnotherRound = false
            wantsForcedRound = false
            sendSoon(ignoringBackoff: forced)
            return
        }
        scheduleRetry(at: shown.summary.failed > 0 ? shown.summary.nextAttemptAt : nil)
    }

    /// Wakes for the next due try after a failure.
    private func scheduleRetry(at date: Date?) {
        retryTimer?.cancel()
        guard let date else { return }
        let delay = max(date.timeIntervalSinceNow, 1)
        retryTimer = Task { [weak self] in
            try? await Task.sleep(for: .seconds(delay))
            guard !Task.isCancelled else { return }
            self?.sendSoon()
        }
    }

    /// One response's state, for its row in a list.
    static func describe(_ state: DeliveryState, lastError: String?) -> String {
        switch state {
        case .waiting: tr("Waiting to be sent")
        case .sending: tr("Sending…")
        case .sent: tr("Sent")
        case .failed: lastError.map { String(format: tr("Not sent yet: %@"), $0) } ?? tr("Not sent yet")
        }
    }

    /// The status in a line for a window: where the responses stand.
    static func describe(_ status: Status) -> String? {
        guard status.server != nil else { return nil }
        let summary = status.summary
        if status.isSending && summary.queued > 0 {
            return String(format: trn("Sending %d response…", "Sending %d responses…", summary.queued), Int32(summary.queued))
        }
        if summary.queued == 0 {
            return summary.sent == 0 ? tr("Responses are sent to the server once submitted.")
                : String(format: trn("%d response sent to the server.", "All %d responses sent to the server.", summary.sent),
                         Int32(summary.sent))
        }
        let waiting = String(format: trn("%d response waiting to be sent.", "%d responses waiting to be sent.", summary.queued),
                             Int32(summary.queued))
        guard let failure = status.failure ?? summary.lastError else { return waiting }
        return waiting + " " + failure
    }
}

extension SyncService {
    /// Shows where the responses stand in `label`, which is hidden while no
    /// server is set, and `mend` while a form server refuses its login or
    /// its certificate is not trusted; the bindings end with the widgets.
    func show(in label: Label, mend: Button) {
        label.observe(for: status) { label, status in
            let line = Self.describe(status)
            label.text = line ?? ""
            label.isVisible = line != nil
        }
        mend.observe(for: status) { button, status in
            button.isVisible = status.serverToMend != nil
            if let server = status.serverToMend {
                button.label = server.certificate ? tr("_Server Settings…") : tr("_Log In…")
            }
        }
    }
}
