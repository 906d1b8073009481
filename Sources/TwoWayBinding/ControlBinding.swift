/// How a binding behaves; the defaults suit most fields.
public struct BindingOptions {
    /// Which side wins when a binding starts.
    public enum InitialSync: Sendable {
        /// The control takes the model's value (the default).
        case modelToControl
        /// The model takes the control's value.
        case controlToModel
    }

    /// When the user's changes reach the model.
    public enum CommitPolicy: Sendable {
        /// On every edit: each keystroke, each step of a drag.
        case everyChange
        /// Only when the user commits: activate, or focus leaving the control.
        case onCommit
    }

    /// Which side's value both take when the binding starts.
    public var initialSync: InitialSync
    /// Whether every edit or only a commit reaches the model.
    public var commitPolicy: CommitPolicy
    /// Where conversion failures are reported. A binding makes its own when `nil`.
    public var validation: Observable<FieldValidation>?
    /// Whether a commit (activate, focus leaving) rewrites the control as
    /// the model's value shows through the transform: `12000` typed reads
    /// `12,000` once the person moves on. Off, the control keeps what was
    /// typed while it means the same.
    public var reformatsOnCommit: Bool

    /// Options with the model winning at start and every edit reaching it, unless given otherwise.
    public init(
        initialSync: InitialSync = .modelToControl,
        commitPolicy: CommitPolicy = .everyChange,
        validation: Observable<FieldValidation>? = nil,
        reformatsOnCommit: Bool = false
    ) {
        self.initialSync = initialSync
        self.commitPolicy = commitPolicy
        self.validation = validation
        self.reformatsOnCommit = reformatsOnCommit
    }
}

/// A binding of any value types: what a binder slot holds, and what a list of
/// bindings of different types is made of.
@MainActor
public class AnyBinding {
    /// Conversion failures of this binding: `.invalid` while the control shows
    /// something the model cannot take.
    public let validation: Observable<FieldValidation>

    /// Times the binding wrote the control, for tests and diagnostics.
    package internal(set) var _controlWriteCount: Int {
        get { writes }
        set { writes = newValue }
    }
    // NB: `@exclusivity(unchecked)`: Internal/FastPaths.swift.
    @usableFromInline @exclusivity(unchecked) var writes = 0

    /// What the binding keeps alive for its model side: a `Binding`'s
    /// getter and setter, which nothing else owns.
    var keptModel: AnyObject?

    @usableFromInline
    init(validation: Observable<FieldValidation>) {
        self.validation = validation
    }

    /// Whether both sides are alive and the binding still connects them.
    public var isActive: Bool { false }

    /// Disconnects both sides and empties the target's binder slot. Calling it
    /// again does nothing.
    public func unbind() {}
}

/// The engine of a two-way binding between an `Observable` and a `Bindable`
/// control: what `bind(with:)` and `<->` return (as an `AnyBinding`), and what
/// the control keeps.
///
/// - The control takes the model's value when bound (or the reverse, by option).
/// - An equal value is never written to the control, and what the control
///   reports while being written is ignored, so there is no feedback loop.
/// - After each write the control is read back: a clamped or rounded value
///   goes to the model once, and both sides agree.
/// - A control value the transform refuses leaves the model as it was and sets
///   `validation` to `.invalid` with the transform's message.
/// - Neither side is kept alive by the binding: the control owns it through its
///   binder slot, and it ends when either side goes away or on `unbind()`.
@MainActor
@usableFromInline
final class ControlBinding<Model, Control: Equatable>: AnyBinding {
    @usableFromInline weak var model: Observable<Model>?
    @usableFromInline weak var control: (any Bindable<Control>)?
    @usableFromInline let transform: ValueTransform<Model, Control>
    @usableFromInline let commitPolicy: BindingOptions.CommitPolicy
    @usableFromInline let reformatsOnCommit: Bool

    @usableFromInline var modelToken: ObservationToken?
    @usableFromInline var controlToken: ObservationToken?
    // NB: `@exclusivity(unchecked)`: Internal/FastPaths.swift.
    @usableFromInline @exclusivity(unchecked) var isWritingControl = false
    @usableFromInline @exclusivity(unchecked) var isWritingModel = false
    // What the control showed when the two sides last agreed: a report with
    // the control still showing it is no user change (focus passing through
    // a field, an activate with nothing typed).
    @usableFromInline @exclusivity(unchecked) var lastAgreed: Control?

    @inlinable
    init(
        model: Observable<Model>,
        control: some Bindable<Control>,
        transform: ValueTransform<Model, Control>,
        options: BindingOptions
    ) {
        self.model = model
        self.control = control
        self.transform = transform
        self.commitPolicy = options.commitPolicy
        self.reformatsOnCommit = options.reformatsOnCommit
        super.init(validation: options.validation ?? Observable(.valid))
    }

    @inlinable
    func start(initialSync: BindingOptions.InitialSync) {
        guard let model, let control else { return }
        modelToken = model.observe { [weak self] value in
            self?.modelDidChange(value)
        }
        controlToken = control.observeUserChanges { [weak self] event in
            self?.controlDidChange(event)
        }
        switch initialSync {
        case .modelToControl: write(model.value, to: control, of: model)
        case .controlToModel: push(control.observingValue(), to: model, from: control)
        }
    }

    override var isActive: Bool {
        modelToken != nil && model != nil && control != nil
    }

    @usableFromInline
    override func unbind() {
        modelToken?.cancel()
        controlToken?.cancel()
        modelToken = nil
        controlToken = nil
        if let control, control.binder === self {
            control.binder = nil
        }
    }

    // MARK: - Model → control

    @inlinable
    func modelDidChange(_ value: Model) {
        guard !isWritingModel else { return }
        guard let model, let control else { return unbind() }
        write(value, to: control, of: model)
    }

    @inlinable
    func write(_ value: Model, to control: any Bindable<Control>, of model: Observable<Model>) {
        // The model is the truth now: whatever the user had typed that did not
        // convert is replaced.
        validation.value = .valid
        let wanted = transform.toControl(value)
        lastAgreed = wanted
        guard !control.isShowing(wanted) else { return }
        isWritingControl = true
        control.updateValue(with: wanted)
        isWritingControl = false
        writes += 1

        if !control.isShowing(wanted) {
            // The control clamped or rounded: the model follows it, once.
            let shown = control.observingValue()
            lastAgreed = shown
            push(shown, to: model, from: control)
        }
    }

    // MARK: - Control → model

    @inlinable
    func controlDidChange(_ event: ControlEvent) {
        guard !isWritingControl else { return }
        if case .rejected(let message) = event {
            validation.value = .invalid(message)
            return
        }
        if commitPolicy == .onCommit, event == .edited { return }
        guard let model, let control else { return unbind() }
        let shown = control.observingValue()
        if shown == lastAgreed, event != .entered {
            // Back to what the model holds (an error typed and undone): valid
            // again, and nothing for the model to hear.
            validation.value = .valid
            reformat(after: event, model: model, control: control)
            return
        }
        push(shown, to: model, from: control)
        reformat(after: event, model: model, control: control)
    }

    /// With `reformatsOnCommit`, a commit the model took shows as the model
    /// holds it.
    @inlinable
    func reformat(after event: ControlEvent, model: Observable<Model>, control: any Bindable<Control>) {
        guard reformatsOnCommit, event == .committed, validation.value.isValid,
              transform.toControl(model.value) != control.observingValue() else { return }
        write(model.value, to: control, of: model)
    }

    @inlinable
    func push(_ shown: Control, to model: Observable<Model>, from control: any Bindable<Control>) {
        switch transform.toModel(shown) {
        case .failure(let error):
            validation.value = .invalid(error.message)
        case .success(let newValue):
            validation.value = .valid
            lastAgreed = shown
            isWritingModel = true
            model.value = newValue
            isWritingModel = false
            // An observer of the model may have corrected the value (or a batch
            // holds it back); the control shows what the model holds.
            if !Propagation.isBatching, transform.toControl(model.value) != transform.toControl(newValue) {
                write(model.value, to: control, of: model)
            }
        }
    }
}

extension Bindable {
    /// Binds this control to `observable` both ways, replacing any binding it had.
    @inlinable
    @discardableResult
    public func bind(
        with observable: Observable<BindingValue>,
        options: BindingOptions = BindingOptions()
    ) -> AnyBinding {
        bind(with: observable, transform: .identity, options: options)
    }

    /// Binds this control to `observable` both ways through `transform`,
    /// replacing any binding it had.
    // Inlinable, as is the engine, so that each binding runs code specialized
    // for its value types: generic code pays for metadata on every change.
    @inlinable
    @discardableResult
    public func bind<Model>(
        with observable: Observable<Model>,
        transform: ValueTransform<Model, BindingValue>,
        options: BindingOptions = BindingOptions()
    ) -> AnyBinding {
        binder?.unbind()
        let binding = ControlBinding(model: observable, control: self, transform: transform, options: options)
        binder = binding
        // A target may refuse a binder (a destroyed widget does): then the
        // binding never connects and reports itself inactive.
        if binder === binding { binding.start(initialSync: options.initialSync) }
        return binding
    }
}
