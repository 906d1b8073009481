infix operator <-> : AssignmentPrecedence
infix operator <- : AssignmentPrecedence

/// Binds a control to an observable both ways: `nameEntry <-> viewModel.name`.
@MainActor
@discardableResult
public func <-> <Control: Bindable>(
    control: Control, observable: Observable<Control.BindingValue>
) -> AnyBinding {
    control.bind(with: observable)
}

/// Shows a value in a control, one way: `summaryLabel <- viewModel.summary`.
@MainActor
@discardableResult
public func <- <Control: Bindable, Source: ObservableValue>(
    control: Control, source: Source
) -> AnyBinding where Source.Value == Control.BindingValue {
    control.observe(for: source)
}

/// Keeps `target` equal to `source`, one way, until the token ends.
@MainActor
public func <- <Value, Source: ObservableValue>(
    target: Observable<Value>, source: Source
) -> ObservationToken where Source.Value == Value {
    source.observe(sendInitial: true) { [weak target] value in target?.value = value }
}
