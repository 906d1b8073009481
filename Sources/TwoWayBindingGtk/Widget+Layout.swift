public import CTwoWayBindingGtkShims

/// Where a widget sits in the room its parent gives it.
public enum Alignment: Sendable {
    case fill, start, end, center

    var gtk: GtkAlign {
        switch self {
        case .fill: GTK_ALIGN_FILL
        case .start: GTK_ALIGN_START
        case .end: GTK_ALIGN_END
        case .center: GTK_ALIGN_CENTER
        }
    }
}

extension Widget {
    /// Adds a CSS style class (`card`, `dim-label`, `error`, …).
    public func addStyleClass(_ name: String) {
        if let pointer { gtk_widget_add_css_class(pointer, name) }
    }

    /// Removes a CSS style class.
    public func removeStyleClass(_ name: String) {
        if let pointer { gtk_widget_remove_css_class(pointer, name) }
    }

    /// Whether the widget has the style class `name`.
    public func hasStyleClass(_ name: String) -> Bool {
        pointer.map { gtk_widget_has_css_class($0, name) != 0 } ?? false
    }

    /// The smallest size the widget takes, in pixels; -1 leaves a side to
    /// the widget's own needs.
    public func setMinimumSize(width: Int32 = -1, height: Int32 = -1) {
        if let pointer { gtk_widget_set_size_request(pointer, width, height) }
    }

    /// The height the widget was last given, in pixels (0 before it is shown).
    public var allocatedHeight: Int {
        pointer.map { Int(gtk_widget_get_height($0)) } ?? 0
    }

    /// The text shown when the pointer rests on the widget.
    public var tooltip: String? {
        get { pointer.flatMap { gtk_widget_get_tooltip_text($0) }.map { String(cString: $0) } }
        set {
            guard let pointer else { return }
            // GTK asks the display where the pointer is whenever a visible
            // widget's tooltip is set: a round trip to the X server, most
            // of a list row's making. A widget in no window cannot be under
            // the pointer, so its tooltip is set while it is hidden.
            let asks = gtk_widget_get_root(pointer) == nil && gtk_widget_get_visible(pointer) != 0
            if asks { gtk_widget_set_visible(pointer, TWB_FALSE) }
            gtk_widget_set_tooltip_text(pointer, newValue)
            if asks { gtk_widget_set_visible(pointer, TWB_TRUE) }
        }
    }

    /// Where the widget sits across its room.
    public var horizontalAlignment: Alignment {
        get { Self.alignment(pointer.map { gtk_widget_get_halign($0) } ?? GTK_ALIGN_FILL) }
        set { if let pointer { gtk_widget_set_halign(pointer, newValue.gtk) } }
    }

    /// Whether the widget takes any room left across its parent.
    public var expandsHorizontally: Bool {
        get { pointer.map { gtk_widget_get_hexpand($0) != 0 } ?? false }
        set { if let pointer { gtk_widget_set_hexpand(pointer, newValue ? TWB_TRUE : TWB_FALSE) } }
    }

    /// Sets the space kept around the widget, in pixels.
    public func setMargins(top: Int32 = 0, bottom: Int32 = 0, start: Int32 = 0, end: Int32 = 0) {
        guard let pointer else { return }
        gtk_widget_set_margin_top(pointer, top)
        gtk_widget_set_margin_bottom(pointer, bottom)
        gtk_widget_set_margin_start(pointer, start)
        gtk_widget_set_margin_end(pointer, end)
    }

    private static func alignment(_ align: GtkAlign) -> Alignment {
        switch align {
        case GTK_ALIGN_START: .start
        case GTK_ALIGN_END: .end
        case GTK_ALIGN_CENTER: .center
        default: .fill
        }
    }
}

/// Which way text runs, and so which way GTK lays out rows and moves
/// focus with the arrow keys and Tab.
public enum TextDirection: Sendable {
    case leftToRight, rightToLeft

    /// The direction of the desktop's language (GTK's locale direction).
    @MainActor public static var ofLocale: TextDirection {
        gtk_get_locale_direction() == GTK_TEXT_DIR_RTL ? .rightToLeft : .leftToRight
    }

    /// The direction of every widget that sets none: GTK lays out every
    /// window again, mirrored for right to left.
    @MainActor public static var `default`: TextDirection {
        get { gtk_widget_get_default_direction() == GTK_TEXT_DIR_RTL ? .rightToLeft : .leftToRight }
        set { gtk_widget_set_default_direction(newValue == .rightToLeft ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR) }
    }
}

extension Widget {
    /// The direction GTK lays the widget out in: its own, else the default.
    public var textDirection: TextDirection {
        pointer.map { gtk_widget_get_direction($0) == GTK_TEXT_DIR_RTL ? .rightToLeft : .leftToRight } ?? .leftToRight
    }
}

/// A `GtkBox`: widgets one after another, down or across.
public final class Box: Widget {
    public override class var gtkType: GType { gtk_box_get_type() }

    private var box: UnsafeMutablePointer<GtkBox>? { pointer?.cast() }

    /// A new box laying its children out down (`vertical`) or across, with
    /// `spacing` pixels between them.
    public convenience init(vertical: Bool, spacing: Int32 = 0) {
        self.init(new: gtk_box_new(vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, spacing))
    }

    /// Adds `child` after the others.
    public func append(_ child: Widget) {
        if let box, let widget = child.pointer { gtk_box_append(box, widget) }
    }

    /// Removes `child`, if it is one of the box's.
    public func remove(_ child: Widget) {
        guard let box, let pointer, let widget = child.pointer, gtk_widget_get_parent(widget) == pointer else { return }
        gtk_box_remove(box, widget)
    }

    /// Removes every child.
    public func removeAll() {
        guard let box, let pointer else { return }
        while let child = gtk_widget_get_first_child(pointer) { gtk_box_remove(box, child) }
    }
}

/// A `GtkScrolledWindow`: its child scrolls when it is larger than the room given.
public final class ScrolledWindow: Widget {
    public override class var gtkType: GType { gtk_scrolled_window_get_type() }

    /// A scrolled window around `child`, with a frame if `hasFrame`, at
    /// least `minimumHeight` pixels tall (-1: as its child needs).
    public convenience init(child: Widget, hasFrame: Bool = false, minimumHeight: Int32 = -1) {
        self.init(new: gtk_scrolled_window_new())
        guard let pointer else { return }
        let scrolled = OpaquePointer(pointer)
        gtk_scrolled_window_set_child(scrolled, child.pointer)
        gtk_scrolled_window_set_has_frame(scrolled, hasFrame ? TWB_TRUE : TWB_FALSE)
        gtk_scrolled_window_set_min_content_height(scrolled, minimumHeight)
    }
}

/// A `GtkGrid`: widgets in rows and columns, lined up across rows.
public final class Grid: Widget {
    public override class var gtkType: GType { gtk_grid_get_type() }

    private var grid: UnsafeMutablePointer<GtkGrid>? { pointer?.cast() }

    /// A new grid with `columnSpacing` and `rowSpacing` pixels between its cells.
    public convenience init(columnSpacing: Int32 = 0, rowSpacing: Int32 = 0) {
        self.init(new: gtk_grid_new())
        guard let grid else { return }
        gtk_grid_set_column_spacing(grid, UInt32(max(columnSpacing, 0)))
        gtk_grid_set_row_spacing(grid, UInt32(max(rowSpacing, 0)))
    }

    /// Whether every column is as wide as the widest.
    public var columnsAreHomogeneous: Bool {
        get { grid.map { gtk_grid_get_column_homogeneous($0) != 0 } ?? false }
        set { grid.map { gtk_grid_set_column_homogeneous($0, newValue ? TWB_TRUE : TWB_FALSE) } }
    }

    /// Places `child` at `column` and `row` (from 0), spanning `width` columns.
    public func attach(_ child: Widget, column: Int, row: Int, width: Int = 1) {
        guard let grid, let widget = child.pointer else { return }
        gtk_grid_attach(grid, widget, Int32(clamping: column), Int32(clamping: row), Int32(clamping: max(width, 1)), 1)
    }

    /// Removes every child.
    public func removeAll() {
        guard let grid, let pointer else { return }
        while let child = gtk_widget_get_first_child(pointer) { gtk_grid_remove(grid, child) }
    }
}
