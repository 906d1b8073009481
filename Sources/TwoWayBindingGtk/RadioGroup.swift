public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// Check buttons joined in one group, so that one at most is checked, bound
/// to the choice each stands for: an index, an enum's case, any `Equatable`.
/// `nil` is no button checked, as before the user chooses.
///
/// ```swift
/// let size = RadioGroup([(small, Size.small), (large, Size.large)])
/// size <-> viewModel.size            // an Observable<Size?>
/// size.bind(with: viewModel.shape)   // an Observable<Shape>: nil is never written
/// ```
///
/// The group lives as long as the first of its buttons does, and its binding
/// with it.
public final class RadioGroup<Choice: Equatable>: Bindable {
    public typealias BindingValue = Choice?

    public var binder: AnyBinding?
    private let members: [(button: CheckButton, choice: Choice)]

    /// Joins `buttons` (GtkCheckButtons) in one group, each standing for its
    /// choice; throws when one is not a check button.
    public init(_ buttons: [(UnsafeMutablePointer<GtkWidget>, Choice)]) throws(WidgetError) {
        var members: [(button: CheckButton, choice: Choice)] = []
        for (button, choice) in buttons { members.append((try CheckButton.wrapping(button), choice)) }
        self.members = members
        guard let first = buttons.first?.0, let leader = members.first?.button else { return }
        for member in members.dropFirst() { member.button.joinGroup(of: leader) }
        KeptObjects.keep(self, with: first)
    }

    /// The choice of the checked button, or `nil` when none is checked.
    public func observingValue() -> Choice? {
        members.first { $0.button.isChecked }?.choice
    }

    /// Checks the button of `value`, or none for `nil` (or a choice no button has).
    public func updateValue(with value: Choice?) {
        guard observingValue() != value else { return }
        if let value, let member = members.first(where: { $0.choice == value }) {
            member.button.isChecked = true
        } else {
            for member in members where member.button.isChecked { member.button.isChecked = false }
        }
    }

    public func observeUserChanges(_ handler: @escaping (ControlEvent) -> Void) -> ObservationToken {
        // A click unchecks the old button before it checks the new one: only
        // the checking is the user's choice, or the model would see `nil` first.
        let tokens = members.compactMap { member -> ObservationToken? in
            guard let pointer = member.button.pointer else { return nil }
            return Signal.connectKnown(pointer, signal: "notify::active") { [weak button = member.button] in
                if button?.isChecked == true { handler(.committed) }
            }
        }
        return ObservationToken { tokens.forEach { $0.cancel() } }
    }

    /// Binds the group to a model that always holds a choice: the model's
    /// value is checked at once, and no checked button is never written to it.
    @discardableResult
    public func bind(with observable: Observable<Choice>) -> AnyBinding {
        bind(with: observable, transform: ValueTransform(
            toControl: { $0 },
            toModel: { choice in
                choice.map { .success($0) } ?? .failure(.init(localized("No choice is checked")))
            }
        ))
    }
}

extension RadioGroup where Choice == Int {
    /// Joins `buttons` in one group, each standing for its index.
    public convenience init(_ buttons: [UnsafeMutablePointer<GtkWidget>]) throws(WidgetError) {
        try self.init(Array(zip(buttons, buttons.indices)))
    }
}
