import Dispatch
import Synchronization

/// Ends the live tokens released on a thread other than the main one.
///
/// A token and its source point at each other without a retain
/// (Internal/UnretainedReferences.swift), and both belong to the main
/// actor. A token released on another thread is freed when its `deinit`
/// returns, so by then its source must not point at it any more, or must be
/// gone. The two meet under one lock: the token leaves here what its source
/// must remove, and a source that ends takes back what was left for it and
/// tells only its other tokens. The main actor removes what is left on its
/// next turn.
enum OffMainRelease {
    /// What a released token leaves: its source and observer id, or the
    /// closure a token of another kind runs when it ends.
    private struct Left: @unchecked Sendable {
        // Alive while its entry is here: a source takes its entries back,
        // under the lock, before it goes.
        let source: _UnretainedSource?
        let observerID: UInt64
        let removeObserver: ((ObservableNode, UInt64) -> Void)?
        let onCancel: (() -> Void)?
    }

    private static let left = Mutex<[Left]>([])

    /// From a token's `deinit` on another thread: takes what must end, if
    /// the token is live, for the main actor to end.
    nonisolated static func leave(_ token: ObservationToken) {
        let leftSomething = left.withLock { left -> Bool in
            let live = token.observerID != 0 && token.source != nil
            guard live || token.onCancel != nil else { return false }
            left.append(Left(
                source: live ? token.source : nil,
                observerID: live ? token.observerID : 0,
                removeObserver: live ? token.removeObserver : nil, onCancel: token.onCancel
            ))
            return true
        }
        guard leftSomething else { return }
        DispatchQueue.main.async {
            MainActor.assumeIsolated { endWhatWasLeft() }
        }
    }

    /// From a source's `deinit`: takes back what tokens left for it, and
    /// runs `body`, told which of its observer ids those were, under the
    /// lock, so that no token is freed while `body` tells it.
    @MainActor
    static func sourceWillEnd(_ source: ObservableNode, _ body: (_ isLeft: (UInt64) -> Bool) -> Void) {
        left.withLock { left in
            var leftIDs: [UInt64] = []
            left.removeAll { entry in
                guard entry.source == _UnretainedSource(source) else { return false }
                leftIDs.append(entry.observerID)
                return true
            }
            body { leftIDs.contains($0) }
        }
    }

    /// Ends, on the main actor, each token left, one at a time: ending one
    /// may end a source, which must still find its own entries here.
    @MainActor
    private static func endWhatWasLeft() {
        while let entry = left.withLock({ left -> Left? in
            guard !left.isEmpty else { return nil }
            return left.removeFirst()
        }) {
            if let source = entry.source, let removeObserver = entry.removeObserver {
                source.withSource { removeObserver($0, entry.observerID) }
            }
            entry.onCancel?()
        }
    }
}
