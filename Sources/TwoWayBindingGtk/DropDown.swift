public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// A `GtkDropDown` bound to the index of its selected item, `nil` when none is.
///
/// An index past the end selects nothing; the binding reads that back. Bind an
/// `Int` model through `ValueTransform.selection(invalidMessage:)`.
public final class DropDown: Widget, Bindable {
    public override class var gtkType: GType { gtk_drop_down_get_type() }

    /// A new GtkDropDown with no choices yet, wrapped.
    public convenience init() {
        self.init(new: gtk_drop_down_new(nil, nil))
    }

    private var dropDown: OpaquePointer? { pointer.map(OpaquePointer.init) }

    // NB: GTK 4.8's drop-down is not focusable itself; its inner toggle
    // button takes focus, and a screen reader names that button.
    override var accessibleStandIn: UnsafeMutablePointer<GtkWidget>? {
        child(ofType: gtk_toggle_button_get_type())
    }

    /// Offers `items` as the choices, each shown by its `title`, and follows
    /// the list's changes until the token ends: each change reaches GTK as one
    /// splice of the changed range, so the selected item stays selected when
    /// others come or go before it, and the selection binding reads its new
    /// position back. Replaces the choices shown before.
    public func showItems<Element>(
        _ items: ObservableList<Element>, title: @escaping (Element) -> String
    ) -> ObservationToken {
        guard let dropDown, let strings = gtk_string_list_new(nil) else { return ObservationToken {} }
        Self.splice(strings, at: 0, removing: 0, titles: items.map(title))
        // The drop-down takes its own reference; ours keeps splices safe
        // after another model replaces this one.
        gtk_drop_down_set_model(dropDown, strings)
        let change = items.observeChanges { [weak items] change in
            guard let items else { return }
            let added = items[change.position..<change.position + change.added].map(title)
            Self.splice(strings, at: change.position, removing: change.removed, titles: added)
        }
        return ObservationToken {
            change.cancel()
            g_object_unref(UnsafeMutableRawPointer(strings))
        }
    }

    /// Whether the open list has a search entry (`enableSearch(label:)`).
    public var isSearchable: Bool {
        dropDown.map { gtk_drop_down_get_enable_search($0) != 0 } ?? false
    }

    /// Gives the open list a search entry, named `label` to a screen reader,
    /// that narrows the items to those whose title contains what is typed
    /// (ignoring case), for lists too long to scroll through. Typing goes to
    /// it as the list opens; Down moves into the narrowed list.
    public func enableSearch(label: String) {
        guard let dropDown, !isSearchable else { return }
        // The search matches each item's string, the title `showItems` gave it.
        let expression = gtk_property_expression_new(gtk_string_object_get_type(), nil, "string")
        gtk_drop_down_set_expression(dropDown, expression)
        gtk_expression_unref(expression)
        gtk_drop_down_set_enable_search(dropDown, 1)
        guard let popover = child(ofType: gtk_popover_get_type()), let list = try? Widget.wrapping(popover) else { return }
        // GTK 4.8 narrows the whole list at once on each key: 100,000 items
        // held the main loop for a tenth of a second. Incrementally, it
        // narrows a share per main-loop turn, and frames go on meanwhile.
        if let view = Widget.descendant(of: popover, ofType: gtk_list_view_get_type()),
           let selection = gtk_list_view_get_model(OpaquePointer(view)),
           twb_instance_is_a(UnsafeMutableRawPointer(selection), gtk_single_selection_get_type()) != 0,
           let filtered = gtk_single_selection_get_model(selection),
           twb_instance_is_a(UnsafeMutableRawPointer(filtered), gtk_filter_list_model_get_type()) != 0 {
            gtk_filter_list_model_set_incremental(filtered, 1)
        }
        searchTokens.append(Signal.connectKnown(UnsafeMutableRawPointer(popover), signal: "map") { [weak self] in
            // After the drop-down has put focus in its list as it opens.
            _ = addIdle(priority: G_PRIORITY_DEFAULT) { [weak self] in
                self?.focusSearchEntry(label: label)
                return false
            }
        })
        // Added before any `onEnterInList` handler, so it runs first.
        searchTokens.append(list.onEnter { [weak self] in
            self?.pickOnEnter()
            return false
        })
    }

    /// GTK 4.8 picks the list's selection on Enter, not the row with focus,
    /// and a row reached from the search entry has focus unselected; Enter
    /// in the search entry picks nothing. So Enter on a row selects that row
    /// before GTK picks the selection, and Enter in the search entry picks
    /// the first item whose title contains its text (ignoring ASCII case):
    /// found here, as the list may not show it yet (the entry waits before
    /// it narrows the list), scanning only up to the match.
    private func pickOnEnter() {
        guard let dropDown, let popover = child(ofType: gtk_popover_get_type()),
              let list = Widget.descendant(of: popover, ofType: gtk_list_view_get_type()),
              let shown = gtk_list_view_get_model(OpaquePointer(list)),
              let root = pointer.flatMap({ gtk_widget_get_root($0) }),
              let focus = gtk_root_get_focus(root) else { return }
        if focus == list || gtk_widget_is_ancestor(focus, list) != 0 {
            let label = twb_instance_is_a(focus, gtk_label_get_type()) != 0
                ? focus : Widget.descendant(of: focus, ofType: gtk_label_get_type())
            guard let label, let title = gtk_label_get_text(OpaquePointer(label)),
                  let position = Self.firstIndex(in: shown, where: { strcmp($0, title) == 0 }) else { return }
            gtk_selection_model_select_item(shown, guint(position), 1)
        } else if let entry = Widget.descendant(of: popover, ofType: gtk_search_entry_get_type()),
                  focus == entry || gtk_widget_is_ancestor(focus, entry) != 0,
                  let typed = gtk_editable_get_text(OpaquePointer(entry)),
                  let model = gtk_drop_down_get_model(dropDown),
                  case let needle = Self.foldedASCII(typed),
                  let match = Self.firstIndex(in: model, where: { Self.contains($0, needle) }) {
            gtk_drop_down_set_selected(dropDown, guint(match))
            gtk_popover_popdown(popover.cast())
        }
    }

    /// The bytes of `text` with ASCII letters lowercased.
    private static func foldedASCII(_ text: UnsafePointer<CChar>) -> [UInt8] {
        var bytes: [UInt8] = []
        var cursor = text
        while cursor.pointee != 0 {
            let byte = UInt8(bitPattern: cursor.pointee)
            bytes.append(byte >= 65 && byte <= 90 ? byte + 32 : byte)
            cursor += 1
        }
        return bytes
    }

    /// Whether `haystack` contains `needle` (already folded), ASCII letters in either case.
    private static func contains(_ haystack: UnsafePointer<CChar>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        var start = haystack
        while start.pointee != 0 {
            let byte = UInt8(bitPattern: start.pointee)
            if (byte >= 65 && byte <= 90 ? byte + 32 : byte) == first {
                var matched = 1
                while matched < needle.count {
                    let next = UInt8(bitPattern: start[matched])
                    if next == 0 || (next >= 65 && next <= 90 ? next + 32 : next) != needle[matched] { break }
                    matched += 1
                }
                if matched == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    /// The position of the first GtkStringObject of `model` whose string
    /// passes `test`, looking no further.
    private static func firstIndex(in model: OpaquePointer, where test: (UnsafePointer<CChar>) -> Bool) -> Int? {
        for index in 0..<g_list_model_get_n_items(model) {
            guard let item = g_list_model_get_item(model, index) else { continue }
            defer { g_object_unref(item) }
            if let string = gtk_string_object_get_string(OpaquePointer(item)), test(string) { return Int(index) }
        }
        return nil
    }

    /// Focus to the search entry as the list opens (GTK 4.8 focuses the
    /// list, which has no type-ahead), and Enter's pick.
    private var searchTokens: [ObservationToken] = []

    private func focusSearchEntry(label: String) {
        guard let popover = child(ofType: gtk_popover_get_type()),
              let entry = Widget.descendant(of: popover, ofType: gtk_search_entry_get_type()) else { return }
        // GTK 4.8 leaves it named by its type.
        (try? Widget.wrapping(entry))?.accessibleLabel = label
        gtk_widget_grab_focus(entry)
    }

    private static func splice(_ strings: OpaquePointer, at position: Int, removing removed: Int, titles: [String]) {
        withNullTerminatedCStrings(titles) { gtk_string_list_splice(strings, guint(position), guint(removed), $0) }
    }

    /// Calls `handler` when Enter is pressed in the open list of choices,
    /// before the list picks the choice; the key goes on to the list when
    /// `handler` returns `false`. The list is a popover, whose keys do not
    /// pass through the drop-down itself.
    public func onEnterInList(_ handler: @escaping @MainActor () -> Bool) -> ObservationToken {
        // Any widget wraps as a plain Widget.
        guard let popover = child(ofType: gtk_popover_get_type()), let list = try? Widget.wrapping(popover) else {
            return ObservationToken {}
        }
        return list.onEnter(handler)
    }

    /// The selected index, or `nil`.
    public var selectedIndex: Int? {
        get {
            guard let dropDown else { return nil }
            let selected = gtk_drop_down_get_selected(dropDown)
            return selected == TWB_INVALID_LIST_POSITION ? nil : Int(selected)
        }
        set { updateValue(with: newValue) }
    }

    public func observingValue() -> Int? {
        selectedIndex
    }

    public func updateValue(with value: Int?) {
        guard let dropDown, selectedIndex != value else { return }
        let position = value.flatMap { $0 >= 0 ? guint(exactly: $0) : nil } ?? TWB_INVALID_LIST_POSITION
        gtk_drop_down_set_selected(dropDown, position)
    }

    public func observeUserChanges(_ handler: @escaping (ControlEvent) -> Void) -> ObservationToken {
        var connections = UserChangeConnections()
        connect("notify::selected", into: &connections) { handler(.committed) }
        return token(for: connections)
    }
}

extension ValueTransform where Model == Int, Control == Int? {
    /// An index that must be chosen ↔ a drop-down's selection; selecting
    /// nothing keeps the model and reports `invalidMessage`.
    public static func selection(invalidMessage: String) -> ValueTransform {
        ValueTransform(
            toControl: { $0 },
            toModel: { index in index.map { .success($0) } ?? .failure(.init(invalidMessage)) }
        )
    }
}
