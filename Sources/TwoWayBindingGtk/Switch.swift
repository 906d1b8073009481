public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// A `GtkSwitch` bound to a `Bool`; each flip is a commit.
public final class Switch: Widget, Bindable {
    public override class var gtkType: GType { gtk_switch_get_type() }

    /// A new GtkSwitch, wrapped.
    public convenience init() {
        self.init(new: gtk_switch_new())
    }

    private var gtkSwitch: OpaquePointer? { pointer.map(OpaquePointer.init) }

    /// Whether the switch is on.
    public var isOn: Bool {
        get { gtkSwitch.map { gtk_switch_get_active($0) != 0 } ?? false }
        set { updateValue(with: newValue) }
    }

    public func observingValue() -> Bool {
        isOn
    }

    public func updateValue(with value: Bool) {
        guard let gtkSwitch, isOn != value else { return }
        gtk_switch_set_active(gtkSwitch, value ? TWB_TRUE : TWB_FALSE)
    }

    public func observeUserChanges(_ handler: @escaping (ControlEvent) -> Void) -> ObservationToken {
        var connections = UserChangeConnections()
        // NB: notify passes a GParamSpec; the swapped trampoline ignores it.
        connect("notify::active", into: &connections) { handler(.committed) }
        return token(for: connections)
    }
}
