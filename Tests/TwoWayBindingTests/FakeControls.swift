import TwoWayBinding

/// A text control with GTK's habits: a programmatic set reports an edit for
/// "" and then for the new text, even when the text is unchanged.
@MainActor
final class FakeTextField: Bindable {
    var binder: AnyBinding? {
        didSet { if refusesBinders, binder != nil { binder = nil } }
    }
    private(set) var text: String
    private var handlers: [UInt64: (ControlEvent) -> Void] = [:]
    private var nextID: UInt64 = 0
    private(set) var programmaticSets = 0
    private(set) var emissions = 0

    init(text: String = "") {
        self.text = text
    }

    var handlerCount: Int { handlers.count }

    func observingValue() -> String { text }

    func updateValue(with value: String) {
        programmaticSets += 1
        text = ""
        emit(.edited)
        text = value
        emit(.edited)
    }

    func observeUserChanges(_ handler: @escaping (ControlEvent) -> Void) -> ObservationToken {
        nextID += 1
        let id = nextID
        handlers[id] = handler
        return ObservationToken { [weak self] in self?.handlers[id] = nil }
    }

    /// The user types: the text changes and the control reports an edit.
    func type(_ newText: String) {
        text = newText
        emit(.edited)
    }

    /// The user presses Enter or leaves the field.
    func commit() {
        emit(.committed)
    }

    /// The user typed and confirmed what the field shows.
    func enter() {
        emit(.entered)
    }

    /// The control itself refuses what was typed, as a spin button does.
    func reject(_ message: String) {
        emit(.rejected(message))
    }

    /// Whether the control takes bindings; a destroyed widget does not.
    var refusesBinders = false {
        didSet { if refusesBinders { binder = nil } }
    }

    private func emit(_ event: ControlEvent) {
        emissions += 1
        for handler in handlers.values { handler(event) }
    }
}

/// A numeric control with GTK's habits: it clamps to its range, rounds to its
/// digits, and reports programmatic sets that change its value.
@MainActor
final class FakeSpinButton: Bindable {
    var binder: AnyBinding?
    private(set) var value: Double
    var range: ClosedRange<Double>
    let digits: Int
    private var handlers: [UInt64: (ControlEvent) -> Void] = [:]
    private var nextID: UInt64 = 0
    private(set) var programmaticSets = 0
    private(set) var emissions = 0

    init(range: ClosedRange<Double>, digits: Int, value: Double? = nil) {
        self.range = range
        self.digits = digits
        self.value = value ?? range.lowerBound
    }

    var handlerCount: Int { handlers.count }

    func observingValue() -> Double { value }

    func updateValue(with newValue: Double) {
        programmaticSets += 1
        setValue(newValue)
    }

    func observeUserChanges(_ handler: @escaping (ControlEvent) -> Void) -> ObservationToken {
        nextID += 1
        let id = nextID
        handlers[id] = handler
        return ObservationToken { [weak self] in self?.handlers[id] = nil }
    }

    /// The user steps or types a value.
    func userSets(_ newValue: Double) {
        setValue(newValue)
    }

    /// Narrows the range the way `gtk_adjustment_configure` does: clamping and reporting.
    func narrow(to newRange: ClosedRange<Double>) {
        range = newRange
        setValue(value)
    }

    private func setValue(_ newValue: Double) {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let coerced = ((min(max(newValue, range.lowerBound), range.upperBound)) * scale).rounded() / scale
        guard coerced != value else { return }
        value = coerced
        emissions += 1
        for handler in handlers.values { handler(.edited) }
    }
}

/// A display-only target, like a label.
@MainActor
final class FakeLabel: BindingTarget {
    var binder: AnyBinding?
    var text = ""
}

/// Records what an observable announces.
@MainActor
final class Recorder<Value> {
    private final class Sink {
        var values: [Value] = []
    }

    private let sink = Sink()
    let token: ObservationToken

    init<Source: ObservableValue>(_ source: Source, sendInitial: Bool = false) where Source.Value == Value {
        let sink = sink
        token = source.observe(sendInitial: sendInitial) { sink.values.append($0) }
    }

    var received: [Value] { sink.values }
    var count: Int { sink.values.count }
}
