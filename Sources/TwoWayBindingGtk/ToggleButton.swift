public import CGtk
public import TwoWayBinding

/// A `GtkToggleButton` bound to a `Bool`: pressed is `true`; each toggle is a commit.
public final class ToggleButton: Widget, Bindable {
    public override class var gtkType: GType { gtk_toggle_button_get_type() }

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
        gtk_toggle_button_set_active(toggleButton, value ? SF_TRUE : SF_FALSE)
    }

    public func observeUserChanges(_ handler: @escaping (ControlEvent) -> Void) -> ObservationToken {
        var connections = UserChangeConnections()
        connect("notify::active", into: &connections) { handler(.committed) }
        return token(for: connections)
    }
}
