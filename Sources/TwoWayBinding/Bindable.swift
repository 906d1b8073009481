/// What a control reports when the user changes it.
public enum ControlEvent: Sendable, Equatable {
    /// The value changed while the user edits (a keystroke, a drag step).
    case edited
    /// The user committed the value (activate, focus leaving the control).
    /// A commit that leaves the control at the value both sides agreed on
    /// changes nothing.
    case committed
    /// The user typed a value and committed it: it counts even when it equals
    /// what the control showed, as a typed 0 in a spin button that showed 0
    /// for an unanswered question does.
    case entered
    /// The control refused what the user typed (a spin button given letters)
    /// and kept its value; the message says why.
    case rejected(String)
}

/// Anything that carries at most one binding: a control, or a label that
/// only shows a value (the widget layers' `Widget`).
///
/// The binder slot is the analogue of an associated object: a GTK widget keeps
/// its binder in GObject qdata, a test double in a stored property. Binding a
/// target again replaces what the slot holds.
@MainActor
package protocol BindingTarget: AnyObject {
    /// The binding this target carries, kept alive by the target.
    var binder: AnyBinding? { get set }
}

/// A control whose value can be read, written and watched: the side of a
/// two-way binding that the user touches.
///
/// Conformers report user changes only through `observeUserChanges(_:)`; the
/// binding engine ignores what a control reports while it is being written, so a
/// control may emit signals on programmatic sets as GTK widgets do.
///
/// A control carries at most one binding, in its binder slot: the analogue of
/// an associated object (a GTK widget keeps it in GObject qdata, a test
/// double in a stored property). Binding the control again replaces it.
@MainActor
public protocol Bindable<BindingValue>: AnyObject {
    associatedtype BindingValue: Equatable

    /// The binding this control carries, kept alive by the control.
    var binder: AnyBinding? { get set }

    /// The value the control shows now.
    func observingValue() -> BindingValue

    /// Shows `value`. The control may coerce it (clamp, round); the engine reads
    /// the control back afterwards.
    func updateValue(with value: BindingValue)

    /// Whether the control shows `value` now. A control whose value is costly
    /// to build (text) can answer without building it; by default it compares
    /// `observingValue()`.
    func isShowing(_ value: BindingValue) -> Bool

    /// Calls `handler` for each change the control reports, until the token ends.
    ///
    /// A control that refuses input itself reports `.rejected` instead of
    /// `.committed` for that commit.
    func observeUserChanges(_ handler: @escaping (ControlEvent) -> Void) -> ObservationToken
}

extension Bindable {
    /// Whether the control shows `value` now.
    public func isShowing(_ value: BindingValue) -> Bool {
        observingValue() == value
    }
}
