public import CTwoWayBindingGtkShims

/// A `GtkMenuButton` that opens a popover holding other widgets: a calendar,
/// a time of day, anything that would take too much room in the form itself.
public final class PopoverButton: Widget {
    public override class var gtkType: GType { gtk_menu_button_get_type() }

    private var menuButton: OpaquePointer? { pointer.map(OpaquePointer.init) }

    // GTK 4.8 focuses the menu button's inner button. With an icon, GTK
    // names it after the menu button; with a label, only by the label, so
    // it carries the menu button's name too.
    private var showsLabel = false
    override var accessibleStandIn: UnsafeMutablePointer<GtkWidget>? {
        showsLabel ? child(ofType: gtk_toggle_button_get_type()) : nil
    }

    /// A button showing `label` that opens `content`, one above the other.
    public convenience init(label: String, content: [Widget]) {
        self.init(new: gtk_menu_button_new())
        showsLabel = true
        self.label = label
        setContent(content)
    }

    /// A button showing the icon `iconName` that opens `content`. An icon
    /// says nothing to a screen reader: `tooltip` names the button too.
    public convenience init(iconName: String, tooltip: String, content: [Widget]) {
        self.init(new: gtk_menu_button_new())
        if let menuButton { gtk_menu_button_set_icon_name(menuButton, iconName) }
        self.tooltip = tooltip
        accessibleLabel = tooltip
        setContent(content)
    }

    /// The text the button shows.
    public var label: String {
        get { menuButton.flatMap { gtk_menu_button_get_label($0) }.map { String(cString: $0) } ?? "" }
        set {
            guard let menuButton, label != newValue else { return }
            gtk_menu_button_set_label(menuButton, newValue)
        }
    }

    /// The menu the button opens (a window's main menu, say), in place of
    /// other content; GTK holds its own reference to it.
    public var menu: Menu? {
        didSet { if let menuButton { gtk_menu_button_set_menu_model(menuButton, menu?.model) } }
    }

    /// Whether the popover is open.
    public var isOpen: Bool {
        popover.map { gtk_widget_get_visible($0) != 0 } ?? false
    }

    /// Opens the popover; a button not on screen has nowhere to open it.
    public func open() {
        // GTK 4.8 crashes popping up a popover whose button has no surface yet.
        guard let menuButton, let pointer, gtk_widget_get_realized(pointer) != 0 else { return }
        gtk_menu_button_popup(menuButton)
    }

    /// Closes the popover; focus goes back to the button.
    public func close() {
        if let menuButton { gtk_menu_button_popdown(menuButton) }
    }

    private var popover: UnsafeMutablePointer<GtkWidget>? {
        menuButton.flatMap { gtk_menu_button_get_popover($0) }.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self) }
    }

    private func setContent(_ content: [Widget]) {
        let box = Box(vertical: true, spacing: 12)
        for widget in content { box.append(widget) }
        guard let menuButton, let popover = gtk_popover_new() else { return }
        gtk_popover_set_child(popover.cast(to: GtkPopover.self), box.pointer)
        gtk_menu_button_set_popover(menuButton, popover)
    }
}
