import CTwoWayBindingGtkShims
public import TwoWayBindingGtk
public import TwoWayBinding

/// The actions of an application or an application window (its
/// `GActionMap`): what menu items, buttons and shortcuts name (`app.quit`,
/// `win.submit`), each run by a Swift closure.
///
/// ```swift
/// let actions = try ActionMap(of: window)
/// actions.add("submit") { viewModel.submit() }.store(in: bag)
/// actions.bindEnabled("undo", to: viewModel.canUndo).store(in: bag)
/// ```
///
/// Adding an action is a connection like any other: the action leaves the
/// map when its token is cancelled or released. The map is held weakly, so
/// a token outliving its window does nothing.
@MainActor
public final class ActionMap {
    private let map: WeakObject

    /// The actions of `window`, which must be an application window
    /// (`GtkApplicationWindow`, `AdwApplicationWindow`): a plain `GtkWindow`
    /// has none, and is refused.
    public convenience init(of window: Window) throws(WidgetError) {
        guard let pointer = window.pointer else { throw .destroyed(expected: "GActionMap") }
        try self.init(raw: UnsafeMutableRawPointer(pointer))
    }

    /// The application's actions (`app.*`).
    public convenience init(of application: Application) {
        // A GtkApplication is always a GActionMap.
        try! self.init(raw: UnsafeMutableRawPointer(application.pointer))
    }

    /// The actions of any `GActionMap` (a `GSimpleActionGroup`, say).
    public init(raw object: UnsafeMutableRawPointer) throws(WidgetError) {
        guard twb_instance_is_a(object, g_action_map_get_type()) != 0 else {
            throw .wrongType(expected: "GActionMap", actual: Widget.typeName(of: object))
        }
        map = WeakObject(object)
    }

    /// Adds the action `name`; `handler` runs each time it is activated.
    public func add(_ name: String, _ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        let action = g_simple_action_new(name, nil)!
        Signal.connectKnown(UnsafeMutableRawPointer(action), signal: "activate", handler).keep(with: UnsafeMutableRawPointer(action))
        return added(action)
    }

    /// Adds the action `name`, activated with a string (a menu item's target,
    /// such as a file to open), which `handler` is given.
    public func add(_ name: String, parameter handler: @escaping @MainActor (String) -> Void) -> ObservationToken {
        let action = g_simple_action_new(name, Self.stringType)!
        Signal.connectStringVariant(UnsafeMutableRawPointer(action), signal: "activate", handler)
            .keep(with: UnsafeMutableRawPointer(action))
        return added(action)
    }

    /// Adds the action `name` whose state is one string of several, as a
    /// menu's radio items show it (one item per value, each targeting it):
    /// `handler` is given the value chosen, and the state becomes it.
    public func addChoice(
        _ name: String, state: String, _ handler: @escaping @MainActor (String) -> Void
    ) -> ObservationToken {
        let action = g_simple_action_new_stateful(name, Self.stringType, g_variant_new_string(state))!
        Signal.connectStringVariant(UnsafeMutableRawPointer(action), signal: "change-state") { value in
            handler(value)
            g_simple_action_set_state(action, g_variant_new_string(value))
        }
        .keep(with: UnsafeMutableRawPointer(action))
        return added(action)
    }

    /// Whether the action `name` is there and enabled. A disabled action's
    /// shortcut does nothing, and its menu items and buttons are greyed out
    /// (or hidden, where they ask to be).
    public func isEnabled(_ name: String) -> Bool {
        map.withObject { g_action_group_get_action_enabled(OpaquePointer($0), name) != 0 } ?? false
    }

    /// Enables or disables the action `name`, added here.
    public func setEnabled(_ name: String, _ isEnabled: Bool) {
        _ = map.withObject { map in
            guard let action = g_action_map_lookup_action(OpaquePointer(map), name),
                  twb_instance_is_a(UnsafeMutableRawPointer(action), g_simple_action_get_type()) != 0
            else { return }
            g_simple_action_set_enabled(action, isEnabled ? TWB_TRUE : TWB_FALSE)
        }
    }

    /// Keeps the action `name` enabled while `source` is true; until the
    /// token is cancelled or released.
    public func bindEnabled(_ name: String, to source: some ObservableValue<Bool>) -> ObservationToken {
        source.observe(sendInitial: true) { [weak self] enabled in self?.setEnabled(name, enabled) }
    }

    /// Activates the action `name`, with `parameter` for one that takes a
    /// string, as a menu item or a shortcut does.
    public func activate(_ name: String, parameter: String? = nil) {
        _ = map.withObject { map in
            g_action_group_activate_action(OpaquePointer(map), name, parameter.map { g_variant_new_string($0) })
        }
    }

    /// The state of the choice action `name`, if there is one.
    public func state(of name: String) -> String? {
        map.withObject { map -> String? in
            guard let state = g_action_group_get_action_state(OpaquePointer(map), name) else { return nil }
            defer { g_variant_unref(state) }
            guard String(cString: g_variant_get_type_string(state)) == "s" else { return nil }
            return String(cString: g_variant_get_string(state, nil))
        } ?? nil
    }

    /// The parameter and state type of string actions (`"s"`), made once.
    private static let stringType = g_variant_type_new("s")

    /// Puts `action` (whose one reference is handed over) in the map, and
    /// the token that takes it out again: only this action, not one added
    /// later under the same name.
    private func added(_ action: OpaquePointer) -> ObservationToken {
        let name = String(cString: g_action_get_name(action))
        let inserted = map.withObject { g_action_map_add_action(OpaquePointer($0), action) } != nil
        let map = self.map
        return ObservationToken { [action] in
            defer { g_object_unref(UnsafeMutableRawPointer(action)) }
            guard inserted else { return }
            _ = map.withObject { map in
                if g_action_map_lookup_action(OpaquePointer(map), name) == action {
                    g_action_map_remove_action(OpaquePointer(map), name)
                }
            }
        }
    }
}
