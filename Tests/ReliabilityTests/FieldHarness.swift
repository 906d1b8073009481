import CTwoWayBindingGtkShims
import Foundation
import TwoWayBinding
import TwoWayBindingGtk

/// A user edit planned against the widget as it is now: what to do, and what
/// the widget's wrapper must report afterwards.
struct UserEdit<Control> {
    var description: String
    var perform: @MainActor () -> Void
    /// The value the wrapper must report after the edit.
    var expectedControl: Control
    /// The widget refuses the input (text that is not a number).
    var isRefused = false
    /// Text typed into a bound widget and committed (Enter, focus leaving):
    /// an answer even where it equals the value shown, an unanswered
    /// question's placeholder say.
    var isAnswer = false
}

/// What a field looked like before a step.
struct FieldSnapshot {
    let model: Any
    let control: Any
    let notifications: Int
    let writeCount: Int
    /// A number typed and not yet committed, which focus leaving commits.
    var typedValuePending = false
}

/// One model bound (or not) to one real widget, type-erased so that a step can
/// act on any of them.
@MainActor
protocol AnyField: AnyObject {
    var name: String { get }
    var gtkWidget: UnsafeMutablePointer<GtkWidget> { get }
    var isBound: Bool { get }
    var notifications: Int { get }
    var validation: FieldValidation? { get }

    func snapshot() -> FieldSnapshot
    func stateDescription() -> String
    /// Problems with what must hold after every step.
    func invariantProblems() -> [String]

    /// Chooses a model value and returns it with its description.
    func randomModelValue(_ rng: inout SplitMix64) -> (value: Any, description: String)
    func setModel(_ value: Any)
    /// Records what the widget will show for `value`; call before the set.
    func prepareModelSet(_ value: Any)
    /// Problems after model sets whose last value was `last`, from `before`.
    func problemsAfterModelSet(last: Any, before: FieldSnapshot) -> [String]

    /// Plans a user edit; `perform` it, then check it with `problemsAfterUserEdit`.
    func planUserEdit(_ rng: inout SplitMix64) -> (description: String, perform: @MainActor () -> Void, check: @MainActor (FieldSnapshot) -> [String])

    func unbind()
    /// Binds again; returns the problems seen.
    func rebind(initialSync: BindingOptions.InitialSync) -> [String]

    func modelEquals(_ value: Any) -> Bool
    func captureModel() -> Any
}

/// A field of model type `Model` shown by a `W` through `transform`.
@MainActor
final class Field<Model: Equatable, W: Widget & Bindable>: AnyField where W.BindingValue: Equatable {
    typealias Control = W.BindingValue

    let name: String
    let model: Observable<Model>
    let widget: W
    let gtkWidget: UnsafeMutablePointer<GtkWidget>
    private let transform: ValueTransform<Model, Control>
    private let validationSink: Observable<FieldValidation>?
    /// Equality that takes NaN for NaN: for comparing values, not for
    /// predicting notifications (the observable uses `==`).
    private let same: (Model, Model) -> Bool
    private let describe: (Model) -> String
    private let modelValues: @MainActor (inout SplitMix64, Model) -> Model
    /// What the wrapper reports after the binding asks it to show `wanted`,
    /// read from the widget as it is now.
    private let coerce: @MainActor (Control, W) -> Control
    /// What GTK itself shows (text, state), when it does not show `model`.
    private let displayProblem: @MainActor (W, Model) -> String?
    private let userEdits: @MainActor (inout SplitMix64, W) -> UserEdit<Control>

    private(set) var binding: AnyBinding?
    private(set) var notifications = 0
    private var lastSeen: Model
    private var token: ObservationToken?
    private var observerBaseline = 0

    init(
        name: String,
        model: Observable<Model>,
        widget gtkWidget: UnsafeMutablePointer<GtkWidget>,
        as type: W.Type,
        transform: ValueTransform<Model, Control>,
        validation: Observable<FieldValidation>? = nil,
        same: @escaping (Model, Model) -> Bool = { $0 == $1 },
        describe: @escaping (Model) -> String = { "\($0)" },
        modelValues: @escaping @MainActor (inout SplitMix64, Model) -> Model,
        coerce: @escaping @MainActor (Control, W) -> Control = { wanted, _ in wanted },
        displayProblem: @escaping @MainActor (W, Model) -> String?,
        userEdits: @escaping @MainActor (inout SplitMix64, W) -> UserEdit<Control>
    ) throws {
        self.name = name
        self.model = model
        self.gtkWidget = gtkWidget
        self.widget = try W.wrapping(gtkWidget)
        self.transform = transform
        self.validationSink = validation
        self.same = same
        self.describe = describe
        self.modelValues = modelValues
        self.coerce = coerce
        self.displayProblem = displayProblem
        self.userEdits = userEdits
        lastSeen = model.value
    }

    /// Starts counting notifications; call after every other observer of the
    /// model that must not count (histories) was added, before binding.
    func startObserving() {
        token = model.observe { [unowned self] value in
            notifications += 1
            lastSeen = value
        }
        observerBaseline = model._observerCount
    }

    var isBound: Bool { binding != nil }
    var validation: FieldValidation? { binding?.validation.value }

    func captureModel() -> Any { model.value }
    func modelEquals(_ value: Any) -> Bool { same(model.value, value as! Model) }

    func snapshot() -> FieldSnapshot {
        FieldSnapshot(
            model: model.value, control: widget.observingValue(), notifications: notifications,
            writeCount: binding?._controlWriteCount ?? 0,
            typedValuePending: isBound && (widget as? SpinButton)?._hasTypedValuePending == true
        )
    }

    func stateDescription() -> String {
        "\(name): model=\(describe(model.value)) widget=\(widget.observingValue()) bound=\(isBound) notifications=\(notifications)"
            + (validation.map { " validation=\($0)" } ?? "")
    }

    func invariantProblems() -> [String] {
        var problems: [String] = []
        let expectedObservers = observerBaseline + (isBound ? 1 : 0)
        if model._observerCount != expectedObservers {
            problems.append("\(name): \(model._observerCount) observers, expected \(expectedObservers)")
        }
        if !same(lastSeen, model.value) {
            problems.append("\(name): observers last heard \(describe(lastSeen)), the model holds \(describe(model.value))")
        }
        if let binding {
            if !binding.isActive { problems.append("\(name): the binding is inactive") }
            if widget.binder !== binding { problems.append("\(name): the widget's binder is not the binding") }
            problems += agreementProblems()
        } else if widget.binder != nil {
            problems.append("\(name): unbound, but the widget carries a binder")
        }
        return problems
    }

    /// The widget shows what the model holds, modulo the transform.
    private func agreementProblems() -> [String] {
        let shown = widget.observingValue()
        let agrees: Bool
        if transform.toControl(model.value) == shown {
            agrees = true
        } else if case .success(let back) = transform.toModel(shown), same(back, model.value) {
            agrees = true  // a lossy transform (Float ↔ Double)
        } else {
            agrees = false
        }
        var problems: [String] = []
        if !agrees {
            problems.append("\(name): widget shows \(shown), model holds \(describe(model.value))")
        }
        if let problem = displayProblem(widget, model.value) {
            problems.append("\(name): \(problem)")
        }
        return problems
    }

    // MARK: - Model sets

    func randomModelValue(_ rng: inout SplitMix64) -> (value: Any, description: String) {
        // NB: whether NaN set over NaN notifies is the observable's business
        // (and under change): the test never asks, it draws another value.
        var value = modelValues(&rng, model.value)
        while value != value, same(value, model.value) { value = modelValues(&rng, model.value) }
        return (value, describe(value))
    }

    func setModel(_ value: Any) {
        model.value = value as! Model
    }

    func problemsAfterModelSet(last: Any, before: FieldSnapshot) -> [String] {
        defer { preparedShown = nil }
        let last = last as! Model
        let old = before.model as! Model
        let notified = notifications - before.notifications
        var problems: [String] = []
        guard old != last else {
            if notified != 0 { problems.append("\(name): \(notified) notifications for an equal value") }
            if !same(model.value, old) { problems.append("\(name): the model changed to \(describe(model.value))") }
            return problems
        }
        guard isBound else {
            if notified != 1 { problems.append("\(name): \(notified) notifications, expected 1 (unbound)") }
            if !same(model.value, last) { problems.append("\(name): model \(describe(model.value)), expected \(describe(last))") }
            if widget.observingValue() != before.control as! Control {
                problems.append("\(name): an unbound widget changed to \(widget.observingValue())")
            }
            return problems
        }
        // The binding shows the value; a widget that clamps or rounds it gives
        // the model its own value, once.
        let wanted = transform.toControl(last)
        let shown = coerceFromSnapshot(wanted, before: before)
        var expected = last
        var expectedNotifications = 1
        if shown != wanted {
            guard case .success(let corrected) = transform.toModel(shown) else {
                return ["\(name): test bug: the widget's value \(shown) does not convert"]
            }
            expected = corrected
            if corrected != last { expectedNotifications = 2 }
        }
        if widget.observingValue() != shown {
            problems.append("\(name): widget shows \(widget.observingValue()), expected \(shown)")
        }
        if !same(model.value, expected) {
            problems.append("\(name): model \(describe(model.value)), expected \(describe(expected))")
        }
        if notified != expectedNotifications {
            problems.append("\(name): \(notified) notifications, expected \(expectedNotifications)")
        }
        if validation?.isValid == false {
            problems.append("\(name): a model value left the validation at \(validation!)")
        }
        return problems
    }

    // What the widget will show for the last value set, computed before the
    // set (inside a batch the widget is untouched until the batch ends).
    private var preparedShown: Control?

    private func coerceFromSnapshot(_ wanted: Control, before: FieldSnapshot) -> Control {
        preparedShown ?? coerce(wanted, widget)
    }

    func prepareModelSet(_ value: Any) {
        preparedShown = coerce(transform.toControl(value as! Model), widget)
    }

    // MARK: - User edits

    func planUserEdit(_ rng: inout SplitMix64) -> (description: String, perform: @MainActor () -> Void, check: @MainActor (FieldSnapshot) -> [String]) {
        let edit = userEdits(&rng, widget)
        let check: @MainActor (FieldSnapshot) -> [String] = { [unowned self] before in
            problemsAfterUserEdit(edit, before: before)
        }
        return (edit.description, edit.perform, check)
    }

    private func problemsAfterUserEdit(_ edit: UserEdit<Control>, before: FieldSnapshot) -> [String] {
        var problems: [String] = []
        let old = before.model as! Model
        let notified = notifications - before.notifications
        let shown = widget.observingValue()
        if shown != edit.expectedControl {
            problems.append("\(name): widget shows \(shown) after the edit, expected \(edit.expectedControl)")
        }
        guard isBound else {
            if notified != 0 { problems.append("\(name): \(notified) notifications from an unbound widget") }
            if !same(model.value, old) { problems.append("\(name): an unbound widget changed the model") }
            return problems
        }
        var expected = old
        if edit.expectedControl != before.control as! Control || edit.isAnswer {
            guard case .success(let value) = transform.toModel(edit.expectedControl) else {
                return ["\(name): test bug: \(edit.expectedControl) does not convert"]
            }
            expected = value
        }
        let expectedNotifications = expected == old ? 0 : 1
        if notified != expectedNotifications {
            problems.append("\(name): the user's change gave \(notified) notifications, expected \(expectedNotifications)")
        }
        if !same(model.value, expected) {
            problems.append("\(name): model \(describe(model.value)), expected \(describe(expected))")
        }
        let writes = (binding?._controlWriteCount ?? 0) - before.writeCount
        if writes != 0 { problems.append("\(name): the user's change was written back to the widget \(writes) times") }
        if edit.isRefused, validation?.isValid != false {
            problems.append("\(name): refused input left the validation at \(String(describing: validation))")
        }
        if !edit.isRefused, edit.expectedControl != before.control as! Control, validation?.isValid == false {
            problems.append("\(name): accepted input left the validation at \(validation!)")
        }
        return problems
    }

    // MARK: - Binding

    func bind(initialSync: BindingOptions.InitialSync) {
        binding = widget.bind(
            with: model, transform: transform,
            options: BindingOptions(initialSync: initialSync, validation: validationSink)
        )
    }

    func unbind() {
        binding?.unbind()
        binding = nil
    }

    func rebind(initialSync: BindingOptions.InitialSync) -> [String] {
        let before = snapshot()
        let old = model.value
        let wanted = transform.toControl(old)
        let coerced = coerce(wanted, widget)
        let previous = binding
        bind(initialSync: initialSync)
        var problems: [String] = []
        if let previous, previous.isActive { problems.append("\(name): the replaced binding is still active") }
        let expected: Model
        switch initialSync {
        case .modelToControl:
            if coerced == wanted {
                expected = old
            } else if case .success(let value) = transform.toModel(coerced) {
                expected = value
            } else {
                return ["\(name): test bug: \(coerced) does not convert"]
            }
        case .controlToModel:
            guard case .success(let value) = transform.toModel(before.control as! Control) else {
                return ["\(name): test bug: \(before.control) does not convert"]
            }
            expected = value
        }
        if !same(model.value, expected) {
            problems.append("\(name): after binding (\(initialSync)) the model holds \(describe(model.value)), expected \(describe(expected))")
        }
        let notified = notifications - before.notifications
        let expectedNotifications = expected == old ? 0 : 1
        if notified != expectedNotifications {
            problems.append("\(name): binding (\(initialSync)) gave \(notified) notifications, expected \(expectedNotifications)")
        }
        return problems
    }
}
