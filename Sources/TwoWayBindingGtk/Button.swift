public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// A `GtkButton` that runs a closure when clicked. For a button that runs
/// an action (`win.submit`), set its `action-name` in the `.ui` instead.
public final class Button: Widget {
    public override class var gtkType: GType { gtk_button_get_type() }

    /// A button reading `label` as written (an underscore in it is shown,
    /// not taken for a mnemonic: the text may be the user's).
    public convenience init(label: String) {
        self.init(new: gtk_button_new_with_label(label))
    }

    /// A button showing `child`, such as a label that wraps.
    public convenience init(child: Widget) {
        self.init(new: gtk_button_new())
        if let button = pointer, let child = child.pointer {
            gtk_button_set_child(button.cast(to: GtkButton.self), child)
        }
    }

    /// A flat button showing the icon `iconName`. An icon says nothing to a
    /// screen reader: `tooltip` names the button too.
    public convenience init(iconName: String, tooltip: String) {
        self.init(new: gtk_button_new_from_icon_name(iconName))
        addStyleClass("flat")
        self.tooltip = tooltip
        accessibleLabel = tooltip
    }

    /// The text the button reads; `""` for one showing an icon or a child.
    /// Setting it replaces the button's child with the text (an underscore
    /// marks the mnemonic where the button uses underlines).
    public var label: String {
        get {
            guard let button = pointer?.cast(to: GtkButton.self), let text = gtk_button_get_label(button) else { return "" }
            return String(cString: text)
        }
        set {
            guard let button = pointer?.cast(to: GtkButton.self) else { return }
            gtk_button_set_label(button, newValue)
        }
    }

    /// Calls `handler` each time the button is clicked (or activated from
    /// the keyboard), until the token ends.
    public func onClicked(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        guard let pointer else { return ObservationToken {} }
        return Signal.connectKnown(pointer, signal: "clicked", handler)
    }
}
