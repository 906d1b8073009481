public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// A `GtkLabel` that shows an observable value, one way.
public final class Label: Widget {
    public override class var gtkType: GType { gtk_label_get_type() }

    /// A new GtkLabel showing `text`, wrapped.
    public convenience init(_ text: String = "") {
        self.init(new: gtk_label_new(text))
    }

    private var label: OpaquePointer? { pointer.map(OpaquePointer.init) }

    /// The text shown; setting an equal text does nothing.
    public var text: String {
        get { label.map { String(cString: gtk_label_get_text($0)) } ?? "" }
        set {
            guard let label, text != newValue else { return }
            gtk_label_set_text(label, newValue)
        }
    }

    /// Shows `source` through `format`, now and after each change, replacing
    /// any binding this label had.
    @discardableResult
    public func show<Source: ObservableValue>(
        _ source: Source,
        format: @escaping (Source.Value) -> String
    ) -> OneWayBinding<Label, Source> {
        observe(for: source) { label, value in label.text = format(value) }
    }

    /// Shows `source`, now and after each change, replacing any binding this label had.
    @discardableResult
    public func show<Source: ObservableValue>(_ source: Source) -> OneWayBinding<Label, Source>
    where Source.Value == String {
        show(source) { $0 }
    }
}

/// Shows a text in a label, one way: `summaryLabel <- viewModel.summary`.
@MainActor
@discardableResult
public func <- <Source: ObservableValue>(label: Label, source: Source) -> OneWayBinding<Label, Source>
where Source.Value == String {
    label.show(source)
}
