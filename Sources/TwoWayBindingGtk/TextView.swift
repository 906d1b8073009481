public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// A `GtkTextView` bound to a `String`: the text of its buffer.
///
/// One user action (typing, a paste, an undo) reports one edit, although the
/// buffer emits `changed` once per insertion or deletion in it; a change that
/// leaves the text as it was reports nothing. Focus leaving reports a commit.
/// The buffer is the one the view has when the binding starts.
public final class TextView: Widget, Bindable {
    public override class var gtkType: GType { gtk_text_view_get_type() }

    /// A new GtkTextView, wrapped.
    public convenience init() {
        self.init(new: gtk_text_view_new())
    }

    // The text last reported or written, to report real changes only.
    private var knownText: String?
    private var isInUserAction = false
    private var changedInUserAction = false
    private var isWriting = false

    private var buffer: UnsafeMutablePointer<GtkTextBuffer>? {
        pointer.flatMap { gtk_text_view_get_buffer($0.cast()) }
    }

    /// The buffer's text.
    public var text: String {
        get { buffer.map(Self.text(of:)) ?? "" }
        set { updateValue(with: newValue) }
    }

    public func observingValue() -> String {
        text
    }

    /// Shows `value`, keeping the cursor's offset (or keeping it at the end).
    public func updateValue(with value: String) {
        guard let buffer else { return }
        let old = Self.text(of: buffer)
        guard old != value else { return }
        var cursor = GtkTextIter()
        gtk_text_buffer_get_iter_at_mark(buffer, &cursor, gtk_text_buffer_get_insert(buffer))
        let offset = Int(gtk_text_iter_get_offset(&cursor))
        let wasAtEnd = offset >= old.unicodeScalars.count

        // set_text deletes, then inserts: `changed` twice, first with "".
        isWriting = true
        gtk_text_buffer_set_text(buffer, value, -1)
        isWriting = false
        knownText = value

        let newOffset = wasAtEnd ? -1 : gint(min(offset, value.unicodeScalars.count))
        gtk_text_buffer_get_iter_at_offset(buffer, &cursor, newOffset)
        gtk_text_buffer_place_cursor(buffer, &cursor)
    }

    public func observeUserChanges(_ handler: @escaping (ControlEvent) -> Void) -> ObservationToken {
        guard let buffer else { return ObservationToken {} }
        knownText = Self.text(of: buffer)
        var connections = UserChangeConnections()
        connect("begin-user-action", of: buffer, into: &connections) { [weak self] in
            self?.isInUserAction = true
        }
        connect("end-user-action", of: buffer, into: &connections) { [weak self] in
            guard let self else { return }
            isInUserAction = false
            if changedInUserAction {
                changedInUserAction = false
                reportIfChanged(handler)
            }
        }
        connect("changed", of: buffer, into: &connections) { [weak self] in
            guard let self, !isWriting else { return }
            if isInUserAction {
                changedInUserAction = true
            } else {
                reportIfChanged(handler)
            }
        }
        connectFocusLeave(into: &connections) { handler(.committed) }
        return token(for: connections)
    }

    private func reportIfChanged(_ handler: (ControlEvent) -> Void) {
        let current = text
        guard current != knownText else { return }
        knownText = current
        handler(.edited)
    }

    static func text(of buffer: UnsafeMutablePointer<GtkTextBuffer>) -> String {
        var start = GtkTextIter()
        var end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &start, &end)
        guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, TWB_TRUE) else { return "" }
        defer { g_free(chars) }
        return String(cString: chars)
    }
}

extension TextView {
    /// Whether long lines wrap at word boundaries (`true`) or run on.
    /// Word wrapping, not GTK's word-and-character wrapping: that one lays a
    /// long unbroken paste out in seconds (GTK 4.8, Pango 1.50).
    public var wrapsWords: Bool {
        get { pointer.map { gtk_text_view_get_wrap_mode($0.cast()) == GTK_WRAP_WORD } ?? false }
        set { pointer.map { gtk_text_view_set_wrap_mode($0.cast(), newValue ? GTK_WRAP_WORD : GTK_WRAP_NONE) } }
    }

    /// Whether the buffer undoes typing itself (GTK's own Ctrl+Z). Off where
    /// a view model's `EditHistory` undoes, so that Ctrl+Z reaches it.
    public var undoesTyping: Bool {
        get { buffer.map { gtk_text_buffer_get_enable_undo($0) != 0 } ?? false }
        set { buffer.map { gtk_text_buffer_set_enable_undo($0, newValue ? TWB_TRUE : TWB_FALSE) } }
    }

    /// Whether Tab types a tab (`true`) or moves the focus on, as in a form.
    public var acceptsTab: Bool {
        get { pointer.map { gtk_text_view_get_accepts_tab($0.cast()) != 0 } ?? false }
        set { pointer.map { gtk_text_view_set_accepts_tab($0.cast(), newValue ? TWB_TRUE : TWB_FALSE) } }
    }
}
