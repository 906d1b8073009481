public import CTwoWayBindingGtkShims
public import TwoWayBinding

extension Widget {
    /// The nearest of the widget itself and its parents that is a `type`
    /// (an editable's spin button, say), wrapped; `nil` if there is none.
    public func ancestor<Ancestor: Widget>(ofType type: Ancestor.Type) -> Ancestor? {
        guard let pointer, let found = gtk_widget_get_ancestor(pointer, type.gtkType) else { return nil }
        return try? type.wrapping(found)
    }

    /// The nearest of the widget itself and its parents that carries the
    /// style class `name`: the way to find which part of a window (a card,
    /// a question) holds a widget, since only the match is wrapped.
    public func ancestor(withStyleClass name: String) -> Widget? {
        var current = pointer
        while let widget = current {
            if gtk_widget_has_css_class(widget, name) != 0 { return try? Widget.wrapping(widget) }
            current = gtk_widget_get_parent(widget)
        }
        return nil
    }

    /// The widget's own children that are `type`s, in order, wrapped: a
    /// list row's parts, found again when the row is bound.
    public func children<Child: Widget>(ofType type: Child.Type) -> [Child] {
        var found: [Child] = []
        var current = pointer.flatMap { gtk_widget_get_first_child($0) }
        while let child = current {
            if type.canWrap(UnsafeMutableRawPointer(child)), let wrapped = try? type.wrapping(child) { found.append(wrapped) }
            current = gtk_widget_get_next_sibling(child)
        }
        return found
    }

    /// The first widget of GType `type` below `widget`, depth first: a
    /// composite widget's inner parts (a drop-down's popover, its list).
    package static func descendant(of widget: UnsafeMutablePointer<GtkWidget>, ofType type: GType) -> UnsafeMutablePointer<GtkWidget>? {
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if twb_instance_is_a(current, type) != 0 { return current }
            if let found = descendant(of: current, ofType: type) { return found }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    /// The window the widget is in, if it is in one.
    public var enclosingWindow: Window? {
        guard let pointer, let root = gtk_widget_get_root(pointer) else { return nil }
        return try? Window.wrapping(root)
    }

    /// Whether the widget is `other` or inside it.
    public func isInside(_ other: Widget) -> Bool {
        guard let pointer, let container = other.pointer else { return false }
        return pointer == container || gtk_widget_is_ancestor(pointer, container) != 0
    }

    /// Calls `handler` when the widget is destroyed (its window closed, or
    /// it was taken out and nothing else held it), before GTK frees it.
    public func onDestroy(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        guard let pointer else { return ObservationToken {} }
        return Signal.connectKnown(pointer, signal: "destroy", handler)
    }
}

extension ObservationToken {
    /// Keeps this token for as long as `widget` lives: for a handler meant
    /// to last as long as its widget, which has no other owner.
    public func keep(with widget: Widget) {
        guard let pointer = widget.pointer else {
            cancel()
            return
        }
        keep(with: UnsafeMutableRawPointer(pointer))
    }
}

extension Widget {
    /// The widget's first direct child of `type` (a drop-down's or a menu
    /// button's inner button, a list's popover).
    func child(ofType type: GType) -> UnsafeMutablePointer<GtkWidget>? {
        var child = pointer.flatMap { gtk_widget_get_first_child($0) }
        while let current = child {
            if twb_instance_is_a(current, type) != 0 { return current }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }
}
