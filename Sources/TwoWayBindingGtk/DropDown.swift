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

    /// The drop-down's first inner widget of `type` (its button, its list's popover).
    private func child(ofType type: GType) -> UnsafeMutablePointer<GtkWidget>? {
        var child = pointer.flatMap { gtk_widget_get_first_child($0) }
        while let current = child {
            if twb_instance_is_a(current, type) != 0 { return current }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
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
