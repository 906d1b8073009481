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

    /// Pango markup shown (`<b>`, `<span foreground="red">`, `<a href>`),
    /// with `text` and a screen reader then giving its words without the
    /// tags; setting an equal markup does nothing. The caller escapes what
    /// is not markup (`g_markup_escape_text`'s five characters).
    public var markup: String {
        get { label.map { String(cString: gtk_label_get_label($0)) } ?? "" }
        set {
            guard let label, gtk_label_get_use_markup(label) == 0 || markup != newValue else { return }
            gtk_label_set_markup(label, newValue)
        }
    }

    /// Whether the text can be selected and copied; a selectable label also
    /// takes keyboard focus, and a screen reader then reads it.
    public var isSelectable: Bool {
        get { label.map { gtk_label_get_selectable($0) != 0 } ?? false }
        set {
            guard let label else { return }
            gtk_label_set_selectable(label, newValue ? TWB_TRUE : TWB_FALSE)
        }
    }

    /// Whether long text wraps at word boundaries onto more lines, aligned
    /// to the start, as a question's or a message's text reads.
    public var wrapsWords: Bool {
        get { label.map { gtk_label_get_wrap($0) != 0 } ?? false }
        set {
            guard let label else { return }
            gtk_label_set_xalign(label, newValue ? 0 : 0.5)
            gtk_label_set_wrap(label, newValue ? TWB_TRUE : TWB_FALSE)
            gtk_label_set_wrap_mode(label, PANGO_WRAP_WORD)
        }
    }

    /// Whether long text wraps at word boundaries, each line centred, as a
    /// caption under a button or over a column reads.
    public var wrapsCentered: Bool {
        get { label.map { gtk_label_get_wrap($0) != 0 && gtk_label_get_justify($0) == GTK_JUSTIFY_CENTER } ?? false }
        set {
            guard let label else { return }
            gtk_label_set_xalign(label, 0.5)
            gtk_label_set_wrap(label, newValue ? TWB_TRUE : TWB_FALSE)
            gtk_label_set_wrap_mode(label, PANGO_WRAP_WORD)
            gtk_label_set_justify(label, newValue ? GTK_JUSTIFY_CENTER : GTK_JUSTIFY_LEFT)
        }
    }

    /// Whether each line too long for the label ends in "…" instead of
    /// wrapping, aligned to the start: one line's height whatever the text,
    /// as a list row reads (and as GTK measures quickly).
    public var ellipsizesLines: Bool {
        get { label.map { gtk_label_get_ellipsize($0) != PANGO_ELLIPSIZE_NONE } ?? false }
        set {
            guard let label else { return }
            gtk_label_set_xalign(label, newValue ? 0 : 0.5)
            gtk_label_set_wrap(label, TWB_FALSE)
            gtk_label_set_ellipsize(label, newValue ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE)
        }
    }

    /// Shows `source` through `format`, now and after each change, replacing
    /// any binding this label had.
    @discardableResult
    public func show<Source: ObservableValue>(
        _ source: Source,
        format: @escaping (Source.Value) -> String
    ) -> AnyBinding {
        observe(for: source) { label, value in label.text = format(value) }
    }

    /// Shows `source` as Pango markup through `format`, now and after each
    /// change, replacing any binding this label had.
    @discardableResult
    public func showMarkup<Source: ObservableValue>(
        _ source: Source,
        format: @escaping (Source.Value) -> String
    ) -> AnyBinding {
        observe(for: source) { label, value in label.markup = format(value) }
    }

    /// Shows `source`, now and after each change, replacing any binding this label had.
    @discardableResult
    public func show<Source: ObservableValue>(_ source: Source) -> AnyBinding
    where Source.Value == String {
        show(source) { $0 }
    }
}

/// Shows a text in a label, one way: `summaryLabel <- viewModel.summary`.
@MainActor
@discardableResult
public func <- <Source: ObservableValue>(label: Label, source: Source) -> AnyBinding
where Source.Value == String {
    label.show(source)
}
