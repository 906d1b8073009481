public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// Any `GtkEditable` (a `GtkEntry`, `GtkPasswordEntry`, `GtkSearchEntry`,
/// libadwaita's `AdwEntryRow`) bound to a `String`. A `GtkSpinButton` is an
/// editable too, and is wrapped as a `SpinButton` instead.
///
/// Edits are reported on `notify::text`, once per change (`changed` fires twice
/// on a set, first with ""). Enter and focus leaving report a commit.
public final class Entry: Widget, Bindable {
    public override class var gtkType: GType { gtk_editable_get_type() }

    /// A new GtkEntry, wrapped.
    public convenience init() {
        self.init(new: gtk_entry_new())
    }

    private var editable: OpaquePointer? { pointer.map(OpaquePointer.init) }

    /// The text shown; setting an equal text does nothing.
    public var text: String {
        get {
            guard pointer != nil, let holder = textHolder, let text = gtk_editable_get_text(holder) else { return "" }
            return String(cString: text)
        }
        set { updateValue(with: newValue) }
    }

    public func observingValue() -> String {
        text
    }

    /// Shows `value`, keeping the cursor where it was (or at the end, if it was there).
    public func updateValue(with value: String) {
        guard pointer != nil, let target = setTarget, let holder = textHolder, !isShowing(value) else { return }
        // Where the cursor goes matters only to someone typing; placing it
        // costs GTK a second layout, so an entry without focus is spared that.
        guard gtk_widget_has_focus(UnsafeMutableRawPointer(holder).assumingMemoryBound(to: GtkWidget.self)) != 0 else {
            Self.setText(value, of: target)
            return
        }
        let old = String(cString: gtk_editable_get_text(target))
        let position = Int(gtk_editable_get_position(target))
        let wasAtEnd = position >= old.unicodeScalars.count
        Self.setText(value, of: target)
        // GTK positions count characters, which are Unicode scalars.
        gtk_editable_set_position(target, wasAtEnd ? -1 : gint(min(position, value.unicodeScalars.count)))
    }

    /// Sets `editable`'s text from the string's own bytes: passed as a
    /// pointer argument, a string is copied into a new array first.
    /// Nonisolated, so its closure is not checked against the executor.
    private nonisolated static func setText(_ value: String, of editable: OpaquePointer) {
        value.withCString { gtk_editable_set_text(editable, $0) }
    }

    /// Where a new text is set: for the entries that only show their
    /// GtkText, the GtkText, as their own `text` property sets it (and
    /// GBinding, and a `.ui` file); a set at the entry would pass its
    /// deletion and insertion through the entry's signals first. Other
    /// editables (a GtkEditableLabel shows a label of its own) at themselves.
    private lazy var setTarget: OpaquePointer? = {
        guard let pointer else { return nil }
        let type = twb_type_of(pointer)
        let showsItsText = [gtk_entry_get_type(), gtk_search_entry_get_type(), gtk_password_entry_get_type()]
            .contains { g_type_is_a(type, $0) != 0 }
        return showsItsText ? textHolder : editable
    }()

    /// Compares the entry's own bytes: no string is built for the check.
    public func isShowing(_ value: String) -> Bool {
        guard pointer != nil, let holder = textHolder, let text = gtk_editable_get_text(holder) else { return value.isEmpty }
        return sameBytes(value, text)
    }

    /// The editable that holds the text: a GtkEntry's GtkText, which it
    /// forwards to; found once, as it lasts as long as the entry.
    private lazy var textHolder: OpaquePointer? = editableFocusWidget().map(OpaquePointer.init)

    public func observeUserChanges(_ handler: @escaping (ControlEvent) -> Void) -> ObservationToken {
        var connections = UserChangeConnections()
        // At the editable itself, not its GtkText: a GtkEntry freezes its
        // notifications while it sets text, so its `notify::text` comes once
        // with the final text, where its GtkText's comes after the deletion too.
        connect("notify::text", into: &connections) { handler(.edited) }
        // A GtkEntry re-emits its text's Enter as its own `activate`; other
        // editables (an AdwEntryRow, whose `activate` is the list row's)
        // are heard at their text.
        if let pointer, g_type_is_a(twb_type_of(pointer), gtk_entry_get_type()) != 0 {
            connect("activate", into: &connections) { handler(.committed) }
        } else {
            connect("activate", of: editableFocusWidget().map(UnsafeMutableRawPointer.init), into: &connections) {
                handler(.committed)
            }
        }
        connectFocusLeave(of: editableFocusWidget(), into: &connections) { handler(.committed) }
        return token(for: connections)
    }
}

extension Entry {
    /// What an on-screen keyboard or an input method offers for the entry.
    public enum InputPurpose: Sendable {
        case freeForm
        case digits
        case number
    }

    /// The grey text shown while a `GtkEntry` or a `GtkText` is empty.
    public var placeholder: String {
        get {
            guard let pointer else { return "" }
            let text: UnsafePointer<CChar>? = if twb_instance_is_a(pointer, gtk_entry_get_type()) != 0 {
                gtk_entry_get_placeholder_text(pointer.cast())
            } else if twb_instance_is_a(pointer, gtk_text_get_type()) != 0 {
                gtk_text_get_placeholder_text(pointer.cast())
            } else {
                nil
            }
            return text.map { String(cString: $0) } ?? ""
        }
        set {
            guard let pointer else { return }
            if twb_instance_is_a(pointer, gtk_entry_get_type()) != 0 {
                gtk_entry_set_placeholder_text(pointer.cast(), newValue)
            } else if twb_instance_is_a(pointer, gtk_text_get_type()) != 0 {
                gtk_text_set_placeholder_text(pointer.cast(), newValue)
            }
        }
    }

    /// Whether the editable undoes typing itself (GTK's own Ctrl+Z). Off
    /// where a view model's `EditHistory` undoes, so that Ctrl+Z reaches it.
    public var undoesTyping: Bool {
        get { editable.map { gtk_editable_get_enable_undo($0) != 0 } ?? false }
        set { editable.map { gtk_editable_set_enable_undo($0, newValue ? TWB_TRUE : TWB_FALSE) } }
    }

    /// The input purpose of a `GtkEntry`.
    public var inputPurpose: InputPurpose {
        get {
            guard let pointer, twb_instance_is_a(pointer, gtk_entry_get_type()) != 0 else { return .freeForm }
            return switch gtk_entry_get_input_purpose(pointer.cast()) {
            case GTK_INPUT_PURPOSE_DIGITS: .digits
            case GTK_INPUT_PURPOSE_NUMBER: .number
            default: .freeForm
            }
        }
        set {
            guard let pointer, twb_instance_is_a(pointer, gtk_entry_get_type()) != 0 else { return }
            let purpose = switch newValue {
            case .freeForm: GTK_INPUT_PURPOSE_FREE_FORM
            case .digits: GTK_INPUT_PURPOSE_DIGITS
            case .number: GTK_INPUT_PURPOSE_NUMBER
            }
            gtk_entry_set_input_purpose(pointer.cast(), purpose)
        }
    }

    /// Whether a `GtkEntry` shows dots in place of its text (a password, a
    /// `masked` answer), and tells an input method not to learn it.
    public var hidesText: Bool {
        get {
            guard let pointer, twb_instance_is_a(pointer, gtk_entry_get_type()) != 0 else { return false }
            return gtk_entry_get_visibility(pointer.cast()) == 0
        }
        set {
            guard let pointer, twb_instance_is_a(pointer, gtk_entry_get_type()) != 0 else { return }
            gtk_entry_set_visibility(pointer.cast(), newValue ? TWB_FALSE : TWB_TRUE)
            gtk_entry_set_input_hints(pointer.cast(), newValue ? GTK_INPUT_HINT_NO_SPELLCHECK : GTK_INPUT_HINT_NONE)
            if newValue { gtk_entry_set_input_purpose(pointer.cast(), GTK_INPUT_PURPOSE_PASSWORD) }
        }
    }

    /// Calls `handler` when Enter is pressed in the entry; until the token ends.
    public func onActivate(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        guard let pointer else { return ObservationToken {} }
        return Signal.connectKnown(pointer, signal: "activate", handler)
    }
}
