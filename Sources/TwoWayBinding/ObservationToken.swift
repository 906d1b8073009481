public import Synchronization

/// A handle on one observation: the observation ends when the token is
/// cancelled or released, whichever comes first.
///
/// ```swift
/// let token = model.name.observe { print($0) }
/// token.cancel()          // or let the token go
/// ```
@MainActor
public final class ObservationToken: Hashable {
    // Either an observable's observation (the common, allocation-light case)
    // or a closure for observations of other kinds (signals, buses). For the
    // first: the source, the observer's id in it, and how to remove it,
    // specialized for the source's value type when the token was made. The
    // source clears `source` of its tokens when it goes, so the reference
    // needs neither a retain nor a weak reference's side table.
    // NB: `@exclusivity(unchecked)`: Internal/FastPaths.swift.
    // `nonisolated(unsafe)`: read by a release on another thread, under
    // `OffMainRelease`'s lock, which the source's end takes too.
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var source: _UnretainedSource?
    // NB: atomic for one reader: a token's deinit reads it before it knows
    // its thread (Internal/FastPaths.swift). Every other access is on the
    // main actor or under `OffMainRelease`'s lock, and relaxed: a plain load
    // or store.
    @usableFromInline let observerIDStorage: Atomic<UInt64>
    @usableFromInline nonisolated var observerID: UInt64 {
        @inlinable get { observerIDStorage.load(ordering: .relaxed) }
        @inlinable set { observerIDStorage.store(newValue, ordering: .relaxed) }
    }
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var removeObserver: ((ObservableNode, UInt64) -> Void)?
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var onCancel: (() -> Void)?

    @inlinable
    init(source: ObservableNode, observerID: UInt64, removeObserver: @escaping (ObservableNode, UInt64) -> Void) {
        self.source = _UnretainedSource(source)
        observerIDStorage = Atomic(observerID)
        self.removeObserver = removeObserver
    }

    /// A token that runs `onCancel` once, when cancelled or released.
    public init(onCancel: @escaping () -> Void) {
        observerIDStorage = Atomic(0)
        self.onCancel = onCancel
        // On the main actor: the thread a released token ends on.
        _ = MainThread.thread
    }

    /// Whether the observation is still in force.
    public var isActive: Bool { observerID != 0 || onCancel != nil }

    /// Ends the observation. Calling it again does nothing.
    // NB: inlinable, Internal/FastPaths.swift.
    @inlinable
    public func cancel() {
        if observerID != 0 {
            let id = observerID
            observerID = 0
            if let source, let removeObserver { Self.remove(id, from: source, with: removeObserver) }
            source = nil
        }
        if let onCancel {
            self.onCancel = nil
            onCancel()
        }
    }

    /// Calls `removeObserver` on `source`, which is alive: it clears its
    /// tokens' `source` before it goes. Nonisolated: a closure in main-actor
    /// code would check the executor on every call.
    @usableFromInline
    nonisolated static func remove(
        _ id: UInt64, from source: _UnretainedSource, with removeObserver: (ObservableNode, UInt64) -> Void
    ) {
        source.withSource { removeObserver($0, id) }
    }

    /// The source went away: there is nothing left to cancel.
    @usableFromInline
    func sourceDidEnd() {
        source = nil
        // Releasing: a deinit on another thread that reads the 0 (acquiring)
        // frees the token only after this, the source's last touch of it.
        observerIDStorage.store(0, ordering: .releasing)
    }

    /// Keeps the token in `bag`, which ends it when the bag is emptied or released.
    public func store(in bag: ObservationToken.Bag) {
        bag.insert(self)
    }

    // NB: nonisolated, not `isolated deinit`, whose executor check cost
    // more than the rest of a subscribe and cancel (Internal/FastPaths.swift).
    // A token that has ended is nobody's concern: it returns before asking
    // which thread it is on. On the main thread a live token ends at once;
    // released on another, it leaves its ending to the main actor through
    // `OffMainRelease`.
    deinit {
        // Nothing but its source writes an ended token, and only its
        // `observerID`, last (`sourceDidEnd`); `onCancel` only the token
        // itself, which nobody else can reach now.
        if observerIDStorage.load(ordering: .acquiring) == 0 && onCancel == nil { return }
        if MainThread.isCurrent {
            runOnMainThread { cancel() }
        } else {
            OffMainRelease.leave(self)
        }
    }

    public nonisolated static func == (lhs: ObservationToken, rhs: ObservationToken) -> Bool {
        lhs === rhs
    }

    public nonisolated func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

extension ObservationToken {
    /// Holds tokens so that many observations end together.
    @MainActor
    public final class Bag {
        private var tokens: [ObservationToken] = []

        /// An empty bag.
        public init() {}

        /// The number of tokens held.
        public var count: Int { tokens.count }

        /// Adds a token to the bag.
        public func insert(_ token: ObservationToken) {
            tokens.append(token)
        }

        /// Cancels every token in the bag and empties it.
        public func cancelAll() {
            let held = tokens
            tokens.removeAll()
            for token in held { token.cancel() }
        }
    }
}
