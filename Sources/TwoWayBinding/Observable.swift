import Dispatch

/// A value that tells its observers when it changes.
///
/// Setting `value` notifies observers synchronously, in the order they
/// subscribed. For `Equatable` values an equal set notifies nobody; `nil` is a
/// value like any other, so clearing an optional notifies.
///
/// ```swift
/// let name = Observable("")
/// let token = name.observe { print("name is now", $0) }
/// name.value = "Ada"      // prints once
/// name.value = "Ada"      // equal: prints nothing
/// ```
@MainActor
public final class Observable<Value>: ObservableNode, ObservableValue {
    // NB: the set, notify, observe and cancel paths are `@inlinable`, so that
    // other modules (the app's view model, its windows) get them specialized
    // for their value types; unspecialized, each set spent most of its time
    // looking up generic metadata. The state they touch is therefore
    // `@usableFromInline`. `@exclusivity(unchecked)`: Internal/FastPaths.swift.
    @usableFromInline @exclusivity(unchecked) var storage: Value
    @usableFromInline let isDuplicate: ((Value, Value) -> Bool)?

    @usableFromInline @exclusivity(unchecked) var observers: ContiguousArray<Observer> = []
    @usableFromInline @exclusivity(unchecked) var nextObserverID: UInt64 = 1
    @usableFromInline @exclusivity(unchecked) var isNotifying = false
    @usableFromInline @exclusivity(unchecked) var valueChangedWhileNotifying = false
    @usableFromInline @exclusivity(unchecked) var observersRemovedWhileNotifying = false

    // The value before the current batch started, to tell whether it changed.
    private var valueBeforeBatch: Value?

    // Projections made by `projection(_:)`, one per key path.
    var projections: [AnyKeyPath: AnyObject] = [:]

    @usableFromInline
    struct Observer {
        @usableFromInline let id: UInt64
        @usableFromInline let handler: (Value) -> Void
        @usableFromInline let token: _UnretainedToken

        @inlinable
        init(id: UInt64, handler: @escaping (Value) -> Void, token: ObservationToken) {
            self.id = id
            self.handler = handler
            self.token = _UnretainedToken(token)
        }
    }

    /// Re-entrant sets that keep changing the value stop after this many rounds.
    @usableFromInline
    static var maximumNotificationRounds: Int { 64 }

    /// Creates an observable that notifies on every set.
    public init(_ value: Value) {
        storage = value
        isDuplicate = nil
        super.init(level: 0)
    }

    /// Creates an observable that notifies only when the value really changes.
    // Inlinable so that the comparison is specialized for the caller's type.
    @inlinable
    public init(_ value: Value) where Value: Equatable {
        storage = value
        isDuplicate = { $0 == $1 }
        super.init(level: 0)
    }

    isolated deinit {
        guard !observers.isEmpty else { return }
        // A token released on another thread and not yet ended is gone:
        // only the others are told.
        OffMainRelease.sourceWillEnd(self) { isLeft in
            for observer in observers where !isLeft(observer.id) { observer.token.token.sourceDidEnd() }
        }
    }

    /// The current value. Setting it notifies observers unless it is equal to
    /// the current one; inside `batch { }` notification waits for the batch end.
    public var value: Value {
        @inlinable get { storage }
        @inlinable set {
            if let isDuplicate {
                if bitwiseEqual(storage, newValue) || isDuplicate(storage, newValue) { return }
            }
            if Propagation.isBatching { return setInBatch(newValue) }
            storage = newValue
            deliverChange()
        }
    }

    @usableFromInline
    func setInBatch(_ newValue: Value) {
        if !isPendingInBatch { valueBeforeBatch = storage }
        storage = newValue
        Propagation.markPending(self)
    }

    /// Calls `observer` with each new value until the returned token ends.
    ///
    /// - Parameters:
    ///   - sendInitial: also call `observer` at once with the current value.
    ///   - observer: called on the main actor with each value.
    @inlinable
    public func observe(
        sendInitial: Bool = false,
        _ observer: @escaping (Value) -> Void
    ) -> ObservationToken {
        let id = nextObserverID
        nextObserverID &+= 1
        let token = ObservationToken(source: self, observerID: id) { source, id in
            // Released here, after the observable's method has returned.
            _ = Self._unchecked(source).removeObserver(id)
        }
        observers.append(Observer(id: id, handler: observer, token: token))
        if sendInitial { observer(storage) }
        return token
    }

    public override func observeChange(_ handler: @escaping () -> Void) -> ObservationToken {
        observe { _ in handler() }
    }

    /// The number of live observations, for tests and diagnostics.
    package var _observerCount: Int { observers.count }

    /// Removes observer `id`, and hands its entry back: the entry's handler
    /// may hold the last reference to this observable (an observer that
    /// keeps its source), so the caller lets it go once this has returned.
    @inlinable
    func removeObserver(_ id: UInt64) -> Observer? {
        // From the end: the newest observation is the one most often ended
        // first, and removing the last entry moves no other.
        // A plain loop: a closure here would be main-actor isolated and
        // checked at run time on every call.
        var index = observers.endIndex
        repeat {
            guard index > observers.startIndex else { return nil }
            index -= 1
        } while observers[index].id != id
        let removed = index == observers.endIndex - 1 ? observers.removeLast() : observers.remove(at: index)
        if isNotifying { observersRemovedWhileNotifying = true }
        return removed
    }

    @inlinable
    func isObserving(_ id: UInt64) -> Bool {
        for observer in observers where observer.id == id { return true }
        return false
    }

    override func commitBatchedChange() {
        let before = valueBeforeBatch
        valueBeforeBatch = nil
        // The same test as a set outside a batch, NaN included.
        if let before, let isDuplicate, bitwiseEqual(before, storage) || isDuplicate(before, storage) {
            return
        }
        deliverChange()
    }

    /// Stores and announces `newValue` without comparing it; for `Derived`,
    /// which compares on its own.
    func forceSet(_ newValue: Value) {
        storage = newValue
        notifyObservers()
    }

    @inlinable
    func deliverChange() {
        notifyObservers()
        if hasDependents {
            invalidateDependents()
            Propagation.drain()
        }
    }

    /// Delivers the current value to every observer. A set made by an observer
    /// ends the round early and starts a new one with the newer value, so no
    /// observer is left holding a stale value and none is called recursively.
    @inlinable
    func notifyObservers() {
        if isNotifying {
            valueChangedWhileNotifying = true
            return
        }
        guard !observers.isEmpty else { return }
        isNotifying = true
        defer { isNotifying = false }
        var rounds = 0
        repeat {
            valueChangedWhileNotifying = false
            observersRemovedWhileNotifying = false
            let snapshot = observers
            let current = storage
            for observer in snapshot {
                if observersRemovedWhileNotifying, !isObserving(observer.id) {
                    continue
                }
                observer.handler(current)
                if valueChangedWhileNotifying { break }
            }
            rounds += 1
            if rounds >= Self.maximumNotificationRounds, valueChangedWhileNotifying {
                reportRunaway(rounds: rounds)
                break
            }
        } while valueChangedWhileNotifying
    }
}

extension Observable {
    @usableFromInline
    func reportRunaway(rounds: Int) {
        print("TwoWayBinding: observers of \(Value.self) kept changing it; stopped after \(rounds) rounds")
    }
}

extension Observable where Value: Sendable {
    /// Sets the value from any thread: the set happens on the main actor, in
    /// the order of the calls, and observers run there.
    ///
    /// The set waits for the main queue to be drained: under a GLib main loop
    /// that takes `MainLoopBridge.install()` from the GTK layer.
    public nonisolated func post(_ newValue: Value) {
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                self.value = newValue
            }
        }
    }
}
