public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// A `GtkToggleButton` bound to a `Bool`: pressed is `true`; each toggle is a commit.
public final class ToggleButton: Widget, Bindable {
    public override class var gtkType: GType { gtk_toggle_button_get_type() }

    /// A new GtkToggleButton labelled `label`, wrapped.
    public convenience init(label: String? = nil) {
        self.init(new: gtk_toggle_button_new_with_label(label))
    }

    /// A flat toggle button showing the icon `iconName`; name it for a
    /// screen reader with `accessibleLabel`, as an icon says nothing.
    /// `heardAsRadio` makes it one of a row a screen reader hears as radio
    /// buttons, checked by `isHeardChecked` (pressed and checked may differ:
    /// every star up to a rating is lit, the rating's own is the one chosen).
    public convenience init(iconName: String, heardAsRadio: Bool = false) {
        self.init(new: heardAsRadio ? twb_toggle_button_new_radio() : gtk_toggle_button_new())
        guard let pointer else { return }
        gtk_button_set_icon_name(pointer.cast(), iconName)
        gtk_button_set_has_frame(pointer.cast(), TWB_FALSE)
    }

    /// The icon shown in place of a label.
    public var iconName: String? {
        get { pointer.flatMap { gtk_button_get_icon_name($0.cast()) }.map { String(cString: $0) } }
        set {
            guard let pointer, let newValue else { return }
            gtk_button_set_icon_name(pointer.cast(), newValue)
        }
    }

    private var toggleButton: UnsafeMutablePointer<GtkToggleButton>? { pointer?.cast() }

    /// Whether a screen reader hears the button checked (for one made
    /// `heardAsRadio`); what it shows is `isActive`.
    public var isHeardChecked: Bool = false {
        didSet {
            if let pointer { twb_accessible_set_checked(OpaquePointer(pointer), isHeardChecked ? TWB_TRUE : TWB_FALSE) }
        }
    }

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

extension ToggleButton {
    /// Calls `handler` each time the person clicks the button (or activates
    /// it from the keyboard), not when `isActive` is set; until the token ends.
    public func onClicked(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        guard let pointer else { return ObservationToken {} }
        return Signal.connectKnown(pointer, signal: "clicked", handler)
    }
}
