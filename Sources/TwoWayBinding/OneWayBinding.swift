/// A one-way binding: a target shows a source's value and never writes back.
///
/// The binding keeps its source alive (a label's formatter is often a `Derived`
/// made for it alone) but not its target, which owns it through its binder slot.
@MainActor
final class OneWayBinding<Target: AnyObject, Source: ObservableValue>: AnyBinding {
    private weak var target: Target?
    /// The target's binder slot.
    private let slot: ReferenceWritableKeyPath<Target, AnyBinding?>
    private var source: Source?
    private var token: ObservationToken?

    private let update: (Target, Source.Value) -> Void

    init(
        target: Target, slot: ReferenceWritableKeyPath<Target, AnyBinding?>, source: Source,
        update: @escaping (Target, Source.Value) -> Void
    ) {
        self.target = target
        self.slot = slot
        self.source = source
        self.update = update
        super.init(validation: Observable(.valid))
    }

    /// Puts the binding in its target's slot, replacing what was there, and
    /// shows the source's value.
    func attach() -> AnyBinding {
        guard let target else { return self }
        target[keyPath: slot]?.unbind()
        target[keyPath: slot] = self
        // A target may refuse a binder (a destroyed widget does).
        if target[keyPath: slot] === self { start() }
        return self
    }

    func start() {
        guard let source else { return }
        let update = update
        token = source.observe(sendInitial: true) { [weak self] value in
            guard let self else { return }
            guard let target = self.target else { return self.unbind() }
            update(target, value)
            self._controlWriteCount += 1
        }
    }

    override var isActive: Bool { token != nil && target != nil }

    override func unbind() {
        token?.cancel()
        token = nil
        source = nil
        if let target, target[keyPath: slot] === self {
            target[keyPath: slot] = nil
        }
    }
}

extension BindingTarget {
    /// Shows `source` through `update`, now and after each change, replacing
    /// any binding this target had.
    @discardableResult
    package func observe<Source: ObservableValue>(
        for source: Source,
        _ update: @escaping (Self, Source.Value) -> Void
    ) -> AnyBinding {
        OneWayBinding(target: self, slot: \.binder, source: source, update: update).attach()
    }
}

extension Bindable {
    /// Shows `source` in this control, one way, replacing any binding it had.
    @discardableResult
    public func observe<Source: ObservableValue>(for source: Source) -> AnyBinding
    where Source.Value == BindingValue {
        OneWayBinding(target: self, slot: \.binder, source: source) { control, value in
            if control.observingValue() != value { control.updateValue(with: value) }
        }
        .attach()
    }
}
