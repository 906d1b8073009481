/// Undo and redo for the observables of a view model.
///
/// It records every change of the observables it tracks, whoever made it: a
/// bound control or code. Undo and redo set values back through the same
/// observables, inside one batch, and are not recorded as new edits. Changes
/// delivered by one batch form one step; consecutive changes of one coalescing
/// field (keystrokes in a text field) form one step until another field changes
/// or `breakCoalescing()` is called.
@MainActor
public final class EditHistory {
    private struct Change {
        let fieldID: ObjectIdentifier
        let coalesces: Bool
        var undo: () -> Void
        var redo: () -> Void
    }

    private struct Step {
        var changes: [Change]
        let commit: UInt64
        var isOpen: Bool
    }

    private var undoStack: [Step] = []
    private var redoStack: [Step] = []
    private var isRestoring = false
    private let limit: Int

    /// Whether there is a step to undo.
    public let canUndo = Observable(false)
    /// Whether there is a step to redo.
    public let canRedo = Observable(false)

    /// Keeps at most `limit` steps to undo.
    public init(limit: Int = 200) {
        self.limit = max(1, limit)
    }

    /// Records changes of `observable` until the token ends: the caller keeps
    /// it for as long as the value belongs to what is edited (a repeat's
    /// instance that goes takes its tracking along).
    ///
    /// - Parameters:
    ///   - observable: the value whose changes become undo steps.
    ///   - coalescing: consecutive changes form one step (text fields).
    public func track<Value: Equatable>(_ observable: Observable<Value>, coalescing: Bool = false) -> ObservationToken {
        var previous = observable.value
        let fieldID = ObjectIdentifier(observable)
        return observable.observe { [weak self, weak observable] newValue in
            let oldValue = previous
            previous = newValue
            guard let self, let observable, !self.isRestoring else { return }
            self.record(
                Change(
                    fieldID: fieldID,
                    coalesces: coalescing,
                    undo: { [weak observable] in observable?.value = oldValue },
                    redo: { [weak observable] in observable?.value = newValue }
                )
            )
        }
    }

    /// Ends the current step, so the next change starts a new one.
    public func breakCoalescing() {
        if !undoStack.isEmpty { undoStack[undoStack.count - 1].isOpen = false }
    }

    /// Sets the values of the last step back; does nothing when there is none.
    public func undo() {
        guard let step = undoStack.popLast() else { return }
        restore { for change in step.changes.reversed() { change.undo() } }
        redoStack.append(Step(changes: step.changes, commit: 0, isOpen: false))
        updateAvailability()
    }

    /// Sets again the values of the last undone step; does nothing when there is none.
    public func redo() {
        guard let step = redoStack.popLast() else { return }
        restore { for change in step.changes { change.redo() } }
        undoStack.append(Step(changes: step.changes, commit: 0, isOpen: false))
        updateAvailability()
    }

    /// Forgets every step.
    public func clear() {
        undoStack.removeAll()
        redoStack.removeAll()
        updateAvailability()
    }

    /// The number of steps that can be undone.
    package var _undoCount: Int { undoStack.count }

    private func restore(_ body: () -> Void) {
        isRestoring = true
        defer { isRestoring = false }
        batch(body)
    }

    private func record(_ change: Change) {
        redoStack.removeAll()
        let commit = Propagation.currentCommit
        if var last = undoStack.last {
            let sameBatch = commit != 0 && last.commit == commit
            let sameTyping = last.isOpen && change.coalesces && last.changes.count == 1
                && last.changes[0].fieldID == change.fieldID
            if sameBatch {
                last.changes.append(change)
                undoStack[undoStack.count - 1] = last
                return updateAvailability()
            }
            if sameTyping {
                // Keep the oldest undo and the newest redo: one step for the run.
                last.changes[0].redo = change.redo
                undoStack[undoStack.count - 1] = last
                return updateAvailability()
            }
            undoStack[undoStack.count - 1].isOpen = false
        }
        undoStack.append(Step(changes: [change], commit: commit, isOpen: change.coalesces && commit == 0))
        if undoStack.count > limit { undoStack.removeFirst(undoStack.count - limit) }
        updateAvailability()
    }

    private func updateAvailability() {
        canUndo.value = !undoStack.isEmpty
        canRedo.value = !redoStack.isEmpty
    }
}
