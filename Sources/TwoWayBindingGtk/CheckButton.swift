public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// A `GtkCheckButton` bound to a `Bool`; each toggle is a commit.
public final class CheckButton: Widget, Bindable {
    public override class var gtkType: GType { gtk_check_button_get_type() }

    /// A new GtkCheckButton labelled `label`, wrapped.
    public convenience init(label: String? = nil) {
        self.init(new: gtk_check_button_new_with_label(label))
    }

    /// A GtkCheckButton labelled `label` that a screen reader hears as a
    /// radio button: one of a group where one choice at most is made
    /// (GTK 4.8 reports grouped check buttons as check boxes).
    public convenience init(radioLabel label: String) {
        self.init(new: twb_check_button_new_radio(label))
    }

    private var checkButton: UnsafeMutablePointer<GtkCheckButton>? { pointer?.cast() }

    /// Whether the button is checked.
    public var isChecked: Bool {
        get { checkButton.map { gtk_check_button_get_active($0) != 0 } ?? false }
        set { updateValue(with: newValue) }
    }

    /// Puts the button in `leader`'s group, where one button at most is
    /// checked and each shows as a radio button; a button in another group
    /// leaves it first.
    public func joinGroup(of leader: CheckButton) {
        guard let checkButton, let other = leader.checkButton, checkButton != other else { return }
        // NB: GTK 4.8 links a button put again into the group it is in
        // (as a .ui file's `group` property already did) into a cycle, and
        // the next set_active never returns: leave the group first.
        gtk_check_button_set_group(checkButton, nil)
        gtk_check_button_set_group(checkButton, other)
    }

    public func observingValue() -> Bool {
        isChecked
    }

    public func updateValue(with value: Bool) {
        guard let checkButton, isChecked != value else { return }
        gtk_check_button_set_active(checkButton, value ? TWB_TRUE : TWB_FALSE)
    }

    public func observeUserChanges(_ handler: @escaping (ControlEvent) -> Void) -> ObservationToken {
        var connections = UserChangeConnections()
        connect("notify::active", into: &connections) { handler(.committed) }
        return token(for: connections)
    }
}
