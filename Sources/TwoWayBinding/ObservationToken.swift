/// A handle on one observation: the observation ends when the token is
/// cancelled or released, whichever comes first.
///
/// ```swift
/// let token = model.name.observe { print($0) }
/// token.cancel()          // or let the token go
/// ```
@MainActor
public final class ObservationToken: Hashable {
    // Either a source and the observer's id in it (the common, allocation-light
    // case) or a closure for observations of other kinds (signals, buses).
    private weak var source: (any ObserverRemoving)?
    private var observerID: UInt64
    private var onCancel: (() -> Void)?

    @usableFromInline
    init(source: any ObserverRemoving, observerID: UInt64) {
        self.source = source
        self.observerID = observerID
    }

    /// A token that runs `onCancel` once, when cancelled or released.
    public init(onCancel: @escaping () -> Void) {
        self.observerID = 0
        self.onCancel = onCancel
    }

    /// Whether the observation is still in force.
    public var isActive: Bool { observerID != 0 || onCancel != nil }

    /// Ends the observation. Calling it again does nothing.
    public func cancel() {
        if observerID != 0 {
            let id = observerID
            observerID = 0
            source?.removeObserver(id)
            source = nil
        }
        if let onCancel {
            self.onCancel = nil
            onCancel()
        }
    }

    /// Keeps the token in `bag`, which ends it when the bag is emptied or released.
    public func store(in bag: ObservationBag) {
        bag.insert(self)
    }

    isolated deinit {
        cancel()
    }

    public nonisolated static func == (lhs: ObservationToken, rhs: ObservationToken) -> Bool {
        lhs === rhs
    }

    public nonisolated func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

/// Something that keeps observers by id and can drop one.
@MainActor @usableFromInline
protocol ObserverRemoving: AnyObject {
    func removeObserver(_ id: UInt64)
}

/// Holds tokens so that many observations end together.
@MainActor
public final class ObservationBag {
    private var tokens: [ObservationToken] = []

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
