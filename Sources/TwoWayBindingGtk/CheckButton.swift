public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// A `GtkCheckButton` bound to a `Bool`; each toggle is a commit.
public final class CheckButton: Widget, Bindable {
    public override class var gtkType: GType { gtk_check_button_get_type() }

    /// A new GtkCheckButton labelled `label`, wrapped.
    public convenience init(label: String? = nil) {
        self.init(new: gtk_check_button_new_with_label(label))
    }

    private var checkButton: UnsafeMutablePointer<GtkCheckButton>? { pointer?.cast() }

    /// Whether the button is checked.
    public var isChecked: Bool {
        get { checkButton.map { gtk_check_button_get_active($0) != 0 } ?? false }
        set { updateValue(with: newValue) }
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
