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
public final class Observable<Value>: ObservableNode, ObservableValue, ObserverRemoving {
    private var storage: Value
    private let isDuplicate: ((Value, Value) -> Bool)?

    private var observers: ContiguousArray<Observer> = []
    private var nextObserverID: UInt64 = 1
    private var isNotifying = false
    private var valueChangedWhileNotifying = false
    private var observersRemovedWhileNotifying = false

    // The value before the current batch started, to tell whether it changed.
    private var valueBeforeBatch: Value?

    // Projections made by `projection(_:)`, one per key path.
    var projections: [AnyKeyPath: AnyObject] = [:]

    private struct Observer {
        let id: UInt64
        let handler: (Value) -> Void
    }

    /// Re-entrant sets that keep changing the value stop after this many rounds.
    static var maximumNotificationRounds: Int { 64 }

    /// Creates an observable that notifies on every set.
    public init(_ value: Value) {
        storage = value
        isDuplicate = nil
        super.init(level: 0)
    }

    /// Creates an observable that notifies only when the value really changes.
    public init(_ value: Value) where Value: Equatable {
        storage = value
        isDuplicate = { $0 == $1 }
        super.init(level: 0)
    }

    /// The current value. Setting it notifies observers unless it is equal to
    /// the current one; inside `batch { }` notification waits for the batch end.
    public var value: Value {
        get { storage }
        set {
            if let isDuplicate, isDuplicate(storage, newValue) { return }
            if Propagation.isBatching {
                if !isPendingInBatch { valueBeforeBatch = storage }
                storage = newValue
                Propagation.markPending(self)
                return
            }
            storage = newValue
            deliverChange()
        }
    }

    /// Calls `observer` with each new value until the returned token ends.
    ///
    /// - Parameter sendInitial: also call `observer` at once with the current value.
    public func observe(
        sendInitial: Bool = false,
        _ observer: @escaping (Value) -> Void
    ) -> ObservationToken {
        let id = nextObserverID
        nextObserverID &+= 1
        observers.append(Observer(id: id, handler: observer))
        let token = ObservationToken(source: self, observerID: id)
        if sendInitial { observer(storage) }
        return token
    }

    public override func observeChange(_ handler: @escaping () -> Void) -> ObservationToken {
        observe { _ in handler() }
    }

    /// The number of live observations, for tests and diagnostics.
    public var observerCount: Int { observers.count }

    func removeObserver(_ id: UInt64) {
        guard let index = observers.firstIndex(where: { $0.id == id }) else { return }
        observers.remove(at: index)
        if isNotifying { observersRemovedWhileNotifying = true }
    }

    override func commitBatchedChange() {
        let before = valueBeforeBatch
        valueBeforeBatch = nil
        if let before, let isDuplicate, isDuplicate(before, storage) { return }
        deliverChange()
    }

    /// Stores and announces `newValue` without comparing it; for `Derived`,
    /// which compares on its own.
    func forceSet(_ newValue: Value) {
        storage = newValue
        notifyObservers()
    }

    private func deliverChange() {
        notifyObservers()
        if hasDependents {
            invalidateDependents()
            Propagation.drain()
        }
    }

    /// Delivers the current value to every observer. A set made by an observer
    /// ends the round early and starts a new one with the newer value, so no
    /// observer is left holding a stale value and none is called recursively.
    private func notifyObservers() {
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
                if observersRemovedWhileNotifying, !observers.contains(where: { $0.id == observer.id }) {
                    continue
                }
                observer.handler(current)
                if valueChangedWhileNotifying { break }
            }
            rounds += 1
            if rounds >= Self.maximumNotificationRounds, valueChangedWhileNotifying {
                print("TwoWayBinding: observers of \(Value.self) kept changing it; stopped after \(rounds) rounds")
                break
            }
        } while valueChangedWhileNotifying
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
