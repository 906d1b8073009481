/// A value that can be read and watched: an `Observable` or a `Derived`.
@MainActor
public protocol ObservableValue<Value>: AnyObject {
    associatedtype Value

    /// The current value.
    var value: Value { get }

    /// Calls `observer` with each new value until the returned token ends.
    func observe(sendInitial: Bool, _ observer: @escaping (Value) -> Void) -> ObservationToken
}

extension ObservableValue {
    /// Calls `observer` with each new value until the returned token ends.
    public func observe(_ observer: @escaping (Value) -> Void) -> ObservationToken {
        observe(sendInitial: false, observer)
    }

    /// A read-only value computed from this one, updated when this one changes.
    public func map<Output>(_ transform: @escaping (Value) -> Output) -> Derived<Output>
    where Self: ObservableNode {
        Derived(from: [self]) { [self] in transform(self.value) }
    }

    /// A read-only value computed from this one, which notifies only when the
    /// result changes.
    public func map<Output: Equatable>(_ transform: @escaping (Value) -> Output) -> Derived<Output>
    where Self: ObservableNode {
        Derived(from: [self]) { [self] in transform(self.value) }
    }
}
