public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// A `GtkScale` (any `GtkRange`) bound to a `Double`; bind a `Float` model
/// through `ValueTransform.float`.
///
/// The range clamps what it is given; the binding reads the clamped value back,
/// and narrowing the range with `setRange(_:)` moves the model along.
public final class Scale: Widget, Bindable {
    public override class var gtkType: GType { gtk_range_get_type() }

    /// A new GtkScale offering `range` in steps of `step`, wrapped:
    /// across, or `vertical` with its lowest value at the bottom.
    public convenience init(range: ClosedRange<Double>, step: Double, vertical: Bool = false) {
        self.init(new: gtk_scale_new_with_range(
            vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, range.lowerBound, range.upperBound, step
        ))
        if vertical, let range = self.range { gtk_range_set_inverted(range, TWB_TRUE) }
    }

    private var range: UnsafeMutablePointer<GtkRange>? { pointer?.cast() }

    /// Whether the highest value is at the start of the scale (left, or top
    /// when vertical) instead of the end; the arrow keys follow what is shown.
    public var isInverted: Bool {
        get { range.map { gtk_range_get_inverted($0) != 0 } ?? false }
        set { range.map { gtk_range_set_inverted($0, newValue ? TWB_TRUE : TWB_FALSE) } }
    }

    /// The value shown.
    public var value: Double {
        get { range.map { gtk_range_get_value($0) } ?? 0 }
        set { updateValue(with: newValue) }
    }

    /// Sets the values the scale accepts; the value is clamped into them.
    public func setRange(_ bounds: ClosedRange<Double>) {
        guard let range else { return }
        gtk_range_set_range(range, bounds.lowerBound, bounds.upperBound)
    }

    public func observingValue() -> Double {
        value
    }

    public func updateValue(with value: Double) {
        guard let range, gtk_range_get_value(range) != value else { return }
        gtk_range_set_value(range, value)
    }

    public func observeUserChanges(_ handler: @escaping (ControlEvent) -> Void) -> ObservationToken {
        var connections = UserChangeConnections()
        connect("value-changed", into: &connections) { handler(.edited) }
        connectFocusLeave(into: &connections) { handler(.committed) }
        return token(for: connections)
    }
}

extension Scale {
    /// Whether a `GtkScale` draws its value beside the slider.
    public var showsValue: Bool {
        get {
            guard let pointer, twb_instance_is_a(pointer, gtk_scale_get_type()) != 0 else { return false }
            return gtk_scale_get_draw_value(pointer.cast()) != 0
        }
        set {
            guard let pointer, twb_instance_is_a(pointer, gtk_scale_get_type()) != 0 else { return }
            gtk_scale_set_draw_value(pointer.cast(), newValue ? TWB_TRUE : TWB_FALSE)
        }
    }
}

extension Scale {
    /// Marks a `GtkScale` at `value`, with `label` beside the mark (`nil`: a
    /// tick alone), under a horizontal scale and beside a vertical one.
    public func addMark(at value: Double, label: String? = nil) {
        guard let pointer, twb_instance_is_a(pointer, gtk_scale_get_type()) != 0 else { return }
        let vertical = gtk_orientable_get_orientation(OpaquePointer(pointer)) == GTK_ORIENTATION_VERTICAL
        gtk_scale_add_mark(pointer.cast(), value, vertical ? GTK_POS_RIGHT : GTK_POS_BOTTOM, label)
    }
}
