/// Runs `body` as one transaction: observables set inside it notify once each,
/// with their final values, when the outermost batch ends, and every derived
/// value recomputes once.
///
/// A value set back to what it was before the batch notifies nobody.
@MainActor
public func batch<Result>(_ body: () throws -> Result) rethrows -> Result {
    Propagation.beginBatch()
    defer { Propagation.endBatch() }
    return try body()
}

/// The change-propagation machinery shared by all observables on the main actor.
///
/// Plain observers hear of a change at once. Derived values are marked dirty and
/// recomputed in level order once the change (or batch) is delivered, so a value
/// derived from several inputs never sees a mix of old and new ones.
@MainActor @usableFromInline
enum Propagation {
    // NB: `@exclusivity(unchecked)`: Internal/FastPaths.swift.
    @usableFromInline @exclusivity(unchecked) static var batchDepth = 0
    private static var pending: [ObservableNode] = []
    private static var spare: [ObservableNode] = []
    private static var dirty: [ObservableNode] = []
    private static var isDraining = false
    private static var commitCounter: UInt64 = 0

    /// Non-zero while a batch delivers its changes; the same number for every
    /// change of one batch. Undo history groups by it.
    private(set) static var currentCommit: UInt64 = 0

    @inlinable
    static var isBatching: Bool { batchDepth > 0 }

    static func beginBatch() {
        batchDepth += 1
    }

    static func endBatch() {
        batchDepth -= 1
        guard batchDepth == 0, !pending.isEmpty else { return }
        commitCounter &+= 1
        let outerCommit = currentCommit
        currentCommit = commitCounter
        defer { currentCommit = outerCommit }
        // Derived values wait until every pending change is delivered, so each
        // recomputes once. Observers may set values again while we deliver;
        // whatever they leave pending is delivered by the next turn of the loop.
        let wasDraining = isDraining
        isDraining = true
        while !pending.isEmpty {
            // Two buffers swapped turn by turn, so that a batch allocates nothing.
            var nodes = spare
            swap(&nodes, &pending)
            for node in nodes {
                node.isPendingInBatch = false
                node.commitBatchedChange()
            }
            nodes.removeAll(keepingCapacity: true)
            spare = nodes
        }
        isDraining = wasDraining
        drain()
    }

    static func markPending(_ node: ObservableNode) {
        guard !node.isPendingInBatch else { return }
        node.isPendingInBatch = true
        pending.append(node)
    }

    static func markDirty(_ node: ObservableNode) {
        guard !node.isDirty else { return }
        node.isDirty = true
        dirty.append(node)
    }

    /// Recomputes dirty derived values, lowest level first, until none is left.
    @usableFromInline
    static func drain() {
        guard !isDraining, !dirty.isEmpty else { return }
        isDraining = true
        defer { isDraining = false }
        while !dirty.isEmpty {
            var lowest = 0
            for index in dirty.indices.dropFirst() where dirty[index].level < dirty[lowest].level {
                lowest = index
            }
            let node = dirty.remove(at: lowest)
            node.isDirty = false
            node.recompute()
        }
    }
}
