/// The part every observable shares, whatever its value type: identity, its
/// place in the dependency graph and the derived values that depend on it.
///
/// Lists of inputs of different types (`Derived(from: [name, years]) { … }`)
/// are lists of nodes.
@MainActor
public class ObservableNode {
    /// Distance from the plain observables this node depends on: 0 for an
    /// `Observable`, one more than its deepest input for a `Derived`. Derived
    /// values recompute in this order, so none sees a stale input.
    let level: Int

    // Held weakly: a derived value lives as long as its own users keep it.
    // NB: `@exclusivity(unchecked)`: Internal/FastPaths.swift.
    @usableFromInline @exclusivity(unchecked) var dependents: [WeakNode] = []

    // Propagation bookkeeping; see `Propagation`.
    var isDirty = false
    @usableFromInline var isPendingInBatch = false

    // Objects whose lifetime is tied to this node (projection links).
    var attachments: [AnyObject] = []

    @usableFromInline
    init(level: Int) {
        self.level = level
        // On the main actor: the thread a released token ends on.
        _ = MainThread.thread
    }

    /// Calls `handler` after each change of this node's value, whatever its type.
    public func observeChange(_ handler: @escaping () -> Void) -> ObservationToken {
        fatalError("subclass responsibility")
    }

    final func addDependent(_ node: ObservableNode) {
        dependents.append(WeakNode(node))
    }

    @inlinable
    final var hasDependents: Bool { !dependents.isEmpty }

    /// Marks every live dependent dirty and forgets the dead ones.
    @usableFromInline
    final func invalidateDependents() {
        var sawDead = false
        for link in dependents {
            if let node = link.node {
                Propagation.markDirty(node)
            } else {
                sawDead = true
            }
        }
        if sawDead { dependents.removeAll { $0.node == nil } }
    }

    /// Recomputes a dirty derived value. Plain observables never become dirty.
    func recompute() {}

    /// Delivers the change held back by a batch, if the value really changed.
    func commitBatchedChange() {}
}

@usableFromInline
struct WeakNode {
    weak var node: ObservableNode?
    init(_ node: ObservableNode) { self.node = node }
}
