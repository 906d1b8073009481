public import CTwoWayBindingGtkShims

/// A `GtkListBox` of a few rows laid out at once (a `ListView` is for many):
/// a screen reader hears a list and its items. Its rows take no focus and
/// no selection themselves; the controls inside them do.
public final class ListBox: Widget {
    public override class var gtkType: GType { gtk_list_box_get_type() }

    /// An empty list, drawn as a boxed list.
    public convenience init() {
        self.init(new: gtk_list_box_new())
        guard let list else { return }
        gtk_list_box_set_selection_mode(list, GTK_SELECTION_NONE)
        addStyleClass("boxed-list")
    }

    private var list: OpaquePointer? { pointer.map(OpaquePointer.init) }

    /// Adds a row holding `child` after the others.
    public func append(_ child: Widget) {
        guard let list, let widget = child.pointer else { return }
        gtk_list_box_append(list, widget)
        // The row: the child itself when it is one (an AdwActionRow), else
        // the one GTK put around it. The child's controls take focus.
        let isRow = g_type_is_a(twb_type_of(widget), gtk_list_box_row_get_type()) != 0
        if let row = isRow ? widget : gtk_widget_get_parent(widget) {
            gtk_widget_set_focusable(row, TWB_FALSE)
            gtk_list_box_row_set_activatable(row.cast(to: GtkListBoxRow.self), TWB_FALSE)
        }
    }

    /// Removes every row.
    public func removeAll() {
        guard let list, let pointer else { return }
        while let row = gtk_widget_get_first_child(pointer) { gtk_list_box_remove(list, row) }
    }

    /// How many rows it has.
    public var rowCount: Int {
        guard let pointer else { return 0 }
        var count = 0
        var row = gtk_widget_get_first_child(pointer)
        while let current = row {
            count += 1
            row = gtk_widget_get_next_sibling(current)
        }
        return count
    }
}
