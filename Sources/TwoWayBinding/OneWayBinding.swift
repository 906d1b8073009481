/// A one-way binding: a target shows a source's value and never writes back.
///
/// The binding keeps its source alive (a label's formatter is often a `Derived`
/// made for it alone) but not its target, which owns it through its binder slot.
@MainActor
public final class OneWayBinding<Target: BindingTarget, Source: ObservableValue>: AnyBinding {
    private weak var target: Target?
    private var source: Source?
    private var token: ObservationToken?

    private let update: (Target, Source.Value) -> Void

    init(target: Target, source: Source, update: @escaping (Target, Source.Value) -> Void) {
        self.target = target
        self.source = source
        self.update = update
        super.init(validation: Observable(.valid))
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

    public override var isActive: Bool { token != nil && target != nil }

    public override func unbind() {
        token?.cancel()
        token = nil
        source = nil
        if let target, target.binder === self {
            target.binder = nil
        }
    }
}

extension BindingTarget {
    /// Shows `source` through `update`, now and after each change, replacing
    /// any binding this target had.
    @discardableResult
    public func observe<Source: ObservableValue>(
        for source: Source,
        _ update: @escaping (Self, Source.Value) -> Void
    ) -> OneWayBinding<Self, Source> {
        binder?.unbind()
        let binding = OneWayBinding(target: self, source: source, update: update)
        binder = binding
        if binder === binding { binding.start() }
        return binding
    }
}

extension Bindable {
    /// Shows `source` in this control, one way, replacing any binding it had.
    @discardableResult
    public func observe<Source: ObservableValue>(for source: Source) -> OneWayBinding<Self, Source>
    where Source.Value == BindingValue {
        observe(for: source) { control, value in
            if control.observingValue() != value { control.updateValue(with: value) }
        }
    }
}
