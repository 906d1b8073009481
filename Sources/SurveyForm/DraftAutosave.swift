import SurveyModel
import SurveyStorage
import TwoWayBinding

/// Saves the answers as a draft at most once a second and never more than a
/// second after a change, so a crash loses at most the last second of typing.
@MainActor
final class DraftAutosave {
    private let drafts: DraftStore
    private let answers: Derived<SurveyAnswers>
    private let instanceID: () -> String
    private let interval: Duration
    private let onError: (String) -> Void
    private let onRecovered: () -> Void
    private var pending: Task<Void, Never>?
    private var token: ObservationToken?
    private var lastError: String?

    init(
        drafts: DraftStore,
        answers: Derived<SurveyAnswers>,
        instanceID: @escaping () -> String,
        interval: Duration = .seconds(1),
        onError: @escaping (String) -> Void,
        onRecovered: @escaping () -> Void
    ) {
        self.drafts = drafts
        self.answers = answers
        self.instanceID = instanceID
        self.interval = interval
        self.onError = onError
        self.onRecovered = onRecovered
        token = answers.observe { [weak self] _ in self?.schedule() }
    }

    /// Saves now what a scheduled save would have saved.
    func flush() {
        guard pending != nil else { return }
        pending?.cancel()
        pending = nil
        save()
    }

    /// Forgets the scheduled save, as after a submit.
    func cancel() {
        pending?.cancel()
        pending = nil
    }

    private func schedule() {
        guard pending == nil else { return }
        let interval = interval
        pending = Task { @MainActor [weak self] in
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            self?.pending = nil
            self?.save()
        }
    }

    private func save() {
        do {
            if answers.value == .empty {
                try drafts.discard()
            } else {
                try drafts.save(answers.value, instanceID: instanceID())
            }
            if lastError != nil { onRecovered() }
            lastError = nil
        } catch {
            // Said once, not every second while the disk stays full.
            let message = error.localizedDescription
            if message != lastError { onError(message) }
            lastError = message
        }
    }
}
