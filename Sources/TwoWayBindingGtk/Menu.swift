public import CTwoWayBindingGtkShims

/// A menu model (`GMenu`): the items a menu button or a popover menu shows,
/// each naming an action (`app.quit`, `win.export-csv`) and, for an action
/// that takes a string, the string it is activated with.
///
/// ```swift
/// let recent = Menu()
/// recent.append("visit.md", action: "app.open-recent", target: "/home/ada/visit.md")
/// menu.appendSubmenu(recent, label: "Open _Recent")
/// ```
///
/// The parts of a menu that never change are best written in a `.ui` file
/// and looked up with `Builder.menu(_:)`.
@MainActor
public final class Menu {
    /// The GMenu (`GMenu *`), on which this object holds a reference.
    public let pointer: OpaquePointer

    /// An empty menu.
    public init() {
        pointer = g_menu_new()
    }

    /// Takes a reference on `menu`, a `GMenu` made elsewhere.
    init(retaining menu: OpaquePointer) {
        g_object_ref(UnsafeMutableRawPointer(menu))
        pointer = menu
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }

    /// The menu as a `GMenuModel`, for GTK calls that take one.
    public var model: UnsafeMutablePointer<GMenuModel> { pointer.cast(to: GMenuModel.self) }

    /// The number of items: entries, sections and submenus.
    public var count: Int { Int(g_menu_model_get_n_items(model)) }

    /// Adds an item labelled `label` (an underscore marks its mnemonic) that
    /// activates `action`, with `target` for an action that takes a string.
    /// `hiddenWhenDisabled` leaves the item out while the action is disabled,
    /// rather than greying it out.
    public func append(_ label: String, action: String, target: String? = nil, hiddenWhenDisabled: Bool = false) {
        let item = g_menu_item_new(label, nil)!
        defer { g_object_unref(UnsafeMutableRawPointer(item)) }
        g_menu_item_set_action_and_target_value(item, action, target.map { g_variant_new_string($0) })
        if hiddenWhenDisabled {
            g_menu_item_set_attribute_value(item, "hidden-when", g_variant_new_string("action-disabled"))
        }
        g_menu_append_item(pointer, item)
    }

    /// Adds `section`'s items after this menu's, set apart by a separator (or
    /// under `label`). Later changes of `section` show here too.
    public func appendSection(_ section: Menu, label: String? = nil) {
        g_menu_append_section(pointer, label, section.model)
    }

    /// Puts `section`'s items before this menu's, as `appendSection` does after.
    public func prependSection(_ section: Menu, label: String? = nil) {
        g_menu_prepend_section(pointer, label, section.model)
    }

    /// Adds an item labelled `label` that opens `submenu`.
    public func appendSubmenu(_ submenu: Menu, label: String) {
        g_menu_append_submenu(pointer, label, submenu.model)
    }

    /// Removes every item.
    public func removeAll() {
        g_menu_remove_all(pointer)
    }

    /// The label of each item, in order; a section or a submenu without a
    /// label reads as the empty string.
    public var labels: [String] {
        (0..<g_menu_model_get_n_items(model)).map { index in
            guard let label = g_menu_model_get_item_attribute_value(model, index, "label", nil) else { return "" }
            defer { g_variant_unref(label) }
            return String(cString: g_variant_get_string(label, nil))
        }
    }
}

extension Builder {
    /// The menu with `id` (a `<menu>` element).
    public func menu(_ id: String) throws(BuilderError) -> Menu {
        let object = try object(id, ofType: g_menu_get_type())
        return Menu(retaining: OpaquePointer(object))
    }
}
