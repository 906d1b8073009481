import TwoWayBinding

/// Saves a draft at most once a second and never more than a second after a
/// change, so a crash loses at most the last second of typing.
@MainActor
final class DraftAutosave {
    private let saveDraft: @MainActor () throws -> Void
    private let interval: Duration
    /// Waits out the interval; a test's hook decides when it has passed.
    private let wait: @Sendable (Duration) async throws -> Void
    private let onError: (String) -> Void
    private let onRecovered: (String) -> Void
    private var pending: Task<Void, Never>?
    private var token: ObservationToken?
    /// Why the draft cannot be saved, until a save succeeds.
    private(set) var problem: String?

    /// Saves with `save` after `changes` changes.
    init<Value>(
        changes: Derived<Value>,
        save: @escaping @MainActor () throws -> Void,
        interval: Duration = .seconds(1),
        wait: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        onError: @escaping (String) -> Void,
        onRecovered: @escaping (_ solvedProblem: String) -> Void
    ) {
        saveDraft = save
        self.interval = interval
        self.wait = wait
        self.onError = onError
        self.onRecovered = onRecovered
        token = changes.observe { [weak self] _ in self?.schedule() }
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
        let interval = interval, wait = wait
        pending = Task { @MainActor [weak self] in
            do {
                try await wait(interval)
            } catch {
                return
            }
            // The wait may have ended just before a submit cancelled the
            // save: one made now would leave the blank form as a draft.
            guard !Task.isCancelled else { return }
            self?.pending = nil
            self?.save()
        }
    }

    private func save() {
        do {
            try saveDraft()
            if let solved = problem {
                problem = nil
                onRecovered(solved)
            }
        } catch {
            // Said once, not every second while the disk stays full.
            let message = error.localizedDescription
            let isNew = message != problem
            problem = message
            if isNew { onError(message) }
        }
    }
}
