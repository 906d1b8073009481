public import CTwoWayBindingGtkShims
public import TwoWayBinding

/// Actions (`GSimpleAction`) whose handlers are Swift closures: what a
/// window's or an application's menu items, buttons and shortcuts name
/// (`win.submit`, `app.quit`). Each handler lives as long as its action,
/// which the map it is added to owns.
@MainActor
public enum Action {
    /// Adds the action `name` to `map` (a `GActionMap`: an application or an
    /// application window); `handler` runs each time it is activated. Returns
    /// the action, to enable or disable.
    @discardableResult
    public static func add(_ name: String, to map: OpaquePointer, _ handler: @escaping @MainActor () -> Void) -> OpaquePointer {
        let action = g_simple_action_new(name, nil)!
        Signal.connect(UnsafeMutableRawPointer(action), signal: "activate", handler).keep(with: UnsafeMutableRawPointer(action))
        return added(action, to: map)
    }

    /// Adds the action `name`, activated with a string (a menu item's
    /// target, such as a file to open), which `handler` is given.
    @discardableResult
    public static func add(
        _ name: String, to map: OpaquePointer, parameter handler: @escaping @MainActor (String) -> Void
    ) -> OpaquePointer {
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        let action = g_simple_action_new(name, type)!
        Signal.connectStringVariant(UnsafeMutableRawPointer(action), signal: "activate", handler)
            .keep(with: UnsafeMutableRawPointer(action))
        return added(action, to: map)
    }

    /// Adds the action `name` whose state is one string of several, as a
    /// menu's radio items show it (one item per value, each targeting it):
    /// `handler` is given the value chosen, and the state becomes it.
    @discardableResult
    public static func addChoice(
        _ name: String, to map: OpaquePointer, state: String, _ handler: @escaping @MainActor (String) -> Void
    ) -> OpaquePointer {
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        let action = g_simple_action_new_stateful(name, type, g_variant_new_string(state))!
        Signal.connectStringVariant(UnsafeMutableRawPointer(action), signal: "change-state") { value in
            handler(value)
            g_simple_action_set_state(action, g_variant_new_string(value))
        }
        .keep(with: UnsafeMutableRawPointer(action))
        return added(action, to: map)
    }

    private static func added(_ action: OpaquePointer, to map: OpaquePointer) -> OpaquePointer {
        g_action_map_add_action(map, action)
        g_object_unref(UnsafeMutableRawPointer(action))
        return action
    }
}
