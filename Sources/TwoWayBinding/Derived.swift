/// A read-only value computed from other observables.
///
/// It recomputes only when one of its inputs changes, and, for `Equatable`
/// values, notifies only when its result changes. Inside a batch, or when
/// several inputs change through one set, it recomputes once.
///
/// ```swift
/// let label = Derived(from: [first, last]) { "\(first.value) \(last.value)" }
/// ```
@MainActor
public final class Derived<Value>: ObservableNode, ObservableValue {
    private let compute: () -> Value
    private let isDuplicate: ((Value, Value) -> Bool)?
    private let inputs: [ObservableNode]
    private let output: Observable<Value>

    /// The number of times the value was computed, for tests and diagnostics.
    package private(set) var _computeCount = 0

    /// Creates a value computed by `compute` from `inputs`, notifying on every
    /// recomputation.
    public init(from inputs: [ObservableNode], compute: @escaping () -> Value) {
        self.compute = compute
        self.isDuplicate = nil
        self.inputs = inputs
        self.output = Observable(compute())
        super.init(level: (inputs.map(\.level).max() ?? -1) + 1)
        _computeCount = 1
        for input in inputs { input.addDependent(self) }
    }

    /// Creates a value computed by `compute` from `inputs`, notifying only when
    /// the result changes.
    public init(from inputs: [ObservableNode], compute: @escaping () -> Value) where Value: Equatable {
        self.compute = compute
        self.isDuplicate = { $0 == $1 }
        self.inputs = inputs
        self.output = Observable(compute())
        super.init(level: (inputs.map(\.level).max() ?? -1) + 1)
        _computeCount = 1
        for input in inputs { input.addDependent(self) }
    }

    /// A value computed from two observables.
    public static func combine<A: ObservableValue & ObservableNode, B: ObservableValue & ObservableNode>(
        _ a: A, _ b: B, _ transform: @escaping (A.Value, B.Value) -> Value
    ) -> Derived<Value> {
        Derived(from: [a, b]) { transform(a.value, b.value) }
    }

    /// A value computed from three observables.
    public static func combine<
        A: ObservableValue & ObservableNode, B: ObservableValue & ObservableNode, C: ObservableValue & ObservableNode
    >(
        _ a: A, _ b: B, _ c: C, _ transform: @escaping (A.Value, B.Value, C.Value) -> Value
    ) -> Derived<Value> {
        Derived(from: [a, b, c]) { transform(a.value, b.value, c.value) }
    }

    /// The current value.
    public var value: Value { output.value }

    /// Calls `observer` with each new value until the returned token ends.
    public func observe(sendInitial: Bool = false, _ observer: @escaping (Value) -> Void) -> ObservationToken {
        output.observe(sendInitial: sendInitial, observer)
    }

    public override func observeChange(_ handler: @escaping () -> Void) -> ObservationToken {
        output.observe { _ in handler() }
    }

    /// The number of live observations, for tests and diagnostics.
    package var _observerCount: Int { output._observerCount }

    override func recompute() {
        let newValue = compute()
        _computeCount += 1
        if let isDuplicate, isDuplicate(output.value, newValue) { return }
        output.forceSet(newValue)
        invalidateDependents()
    }
}
