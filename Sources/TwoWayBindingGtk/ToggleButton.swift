public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// A `GtkToggleButton` bound to a `Bool`: pressed is `true`; each toggle is a commit.
public final class ToggleButton: Widget, Bindable {
    public override class var gtkType: GType { gtk_toggle_button_get_type() }

    /// A new GtkToggleButton labelled `label`, wrapped.
    public convenience init(label: String? = nil) {
        self.init(new: gtk_toggle_button_new_with_label(label))
    }

    private var toggleButton: UnsafeMutablePointer<GtkToggleButton>? { pointer?.cast() }

    /// Whether the button is pressed in.
    public var isActive: Bool {
        get { toggleButton.map { gtk_toggle_button_get_active($0) != 0 } ?? false }
        set { updateValue(with: newValue) }
    }

    public func observingValue() -> Bool {
        isActive
    }

    public func updateValue(with value: Bool) {
        guard let toggleButton, isActive != value else { return }
        gtk_toggle_button_set_active(toggleButton, value ? TWB_TRUE : TWB_FALSE)
    }

    public func observeUserChanges(_ handler: @escaping (ControlEvent) -> Void) -> ObservationToken {
        var connections = UserChangeConnections()
        connect("notify::active", into: &connections) { handler(.committed) }
        return token(for: connections)
    }
}
