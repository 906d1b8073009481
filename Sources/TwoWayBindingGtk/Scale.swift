public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// A `GtkScale` (any `GtkRange`) bound to a `Double`; bind a `Float` model
/// through `ValueTransform.float`.
///
/// The range clamps what it is given; the binding reads the clamped value back,
/// and narrowing the range with `setRange(_:)` moves the model along.
public final class Scale: Widget, Bindable {
    public override class var gtkType: GType { gtk_range_get_type() }

    /// A new horizontal GtkScale offering `range` in steps of `step`, wrapped.
    public convenience init(range: ClosedRange<Double>, step: Double) {
        self.init(new: gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, range.lowerBound, range.upperBound, step))
    }

    private var range: UnsafeMutablePointer<GtkRange>? { pointer?.cast() }

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
