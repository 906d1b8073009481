/// A value that lives elsewhere, read and written through a getter and a
/// setter (seed 002), such as a field of a plain struct another object holds:
///
/// ```swift
/// nameEntry.bind(with: Binding(get: { settings.name }, set: { settings.name = $0 }))
/// ```
///
/// A control bound to it has the guarantees of one bound to an `Observable`:
/// an equal value is never written, the control's echo is ignored, a clamped
/// value is read back and set, and a transform's refusal leaves the setter
/// uncalled. A getter cannot tell when its value changes behind the binding's
/// back: call `refresh()` then. The control's binding keeps this one, and its
/// getter and setter, alive.
@MainActor
public final class Binding<Value: Equatable> {
    private let get: () -> Value
    private let set: (Value) -> Void
    /// The value as bound controls see it; a change from them goes through `set`.
    let mirror: Observable<Value>
    private var token: ObservationToken?
    private var isRefreshing = false

    /// A binding that reads through `get` and writes through `set`.
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
        mirror = Observable(get())
        token = mirror.observe { [unowned self] value in
            if !isRefreshing { self.set(value) }
        }
    }

    /// The value, read through the getter; setting it goes through the setter
    /// and reaches the bound controls.
    public var value: Value {
        get { get() }
        set { mirror.value = newValue }
    }

    /// Reads the getter again and shows a changed value in the bound controls,
    /// without calling the setter: for a change made behind the binding's back.
    public func refresh() {
        isRefreshing = true
        defer { isRefreshing = false }
        mirror.value = get()
    }
}

extension Bindable {
    /// Binds this control to `binding`'s getter and setter, replacing any
    /// binding it had.
    @discardableResult
    public func bind(
        with binding: Binding<BindingValue>,
        options: BindingOptions = BindingOptions()
    ) -> AnyBinding {
        bind(with: binding, transform: .identity, options: options)
    }

    /// Binds this control to `binding`'s getter and setter through `transform`,
    /// replacing any binding it had.
    @discardableResult
    public func bind<Model>(
        with binding: Binding<Model>,
        transform: ValueTransform<Model, BindingValue>,
        options: BindingOptions = BindingOptions()
    ) -> AnyBinding {
        let engine = bind(with: binding.mirror, transform: transform, options: options)
        engine.keptModel = binding
        return engine
    }
}

/// Binds a control to a getter and setter both ways:
/// `nameEntry <-> Binding(get: { draft.name }, set: { draft.name = $0 })`.
@MainActor
@discardableResult
public func <-> <Control: Bindable>(
    control: Control, binding: Binding<Control.BindingValue>
) -> AnyBinding {
    control.bind(with: binding)
}
