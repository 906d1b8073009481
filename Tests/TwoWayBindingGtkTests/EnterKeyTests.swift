import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// `Widget.onEnter`: Enter with no modifier, before the widget sees it.
final class EnterKeyTests: GtkTestCase {
    func testOnlyEnterWithoutModifiers_reachesTheHandler_whichDecides() throws {
        try MainActor.assumeIsolated {
            let gtkSwitch = gtk_switch_new()!
            let window = GtkTest.window(gtkSwitch)
            defer { GtkTest.destroy(window) }
            let calls = Counter()
            // 1 while the handler takes Enter, 0 once it declines.
            let takes = Counter()
            takes.value = 1
            let token = try Switch.wrapping(gtkSwitch).onEnter {
                calls.value += 1
                return takes.value == 1
            }
            let controller = Self.lastController(of: gtkSwitch)
            // Held here: cancelling the token takes it off the switch.
            g_object_ref(controller)
            defer { g_object_unref(controller) }

            XCTAssertEqual(twb_emit_key_pressed(controller, guint(GDK_KEY_Return), GdkModifierType(0)), 1)
            XCTAssertEqual(twb_emit_key_pressed(controller, guint(GDK_KEY_KP_Enter), GdkModifierType(0)), 1)
            XCTAssertEqual(calls.value, 2)
            // Ctrl+Enter submits and Space toggles: neither is Enter.
            XCTAssertEqual(twb_emit_key_pressed(controller, guint(GDK_KEY_Return), GDK_CONTROL_MASK), 0)
            XCTAssertEqual(twb_emit_key_pressed(controller, guint(GDK_KEY_space), GdkModifierType(0)), 0)
            XCTAssertEqual(calls.value, 2)
            // Caps Lock is no modifier.
            XCTAssertEqual(twb_emit_key_pressed(controller, guint(GDK_KEY_Return), GDK_LOCK_MASK), 1)
            XCTAssertEqual(calls.value, 3)

            takes.value = 0
            XCTAssertEqual(twb_emit_key_pressed(controller, guint(GDK_KEY_Return), GdkModifierType(0)), 0,
                           "a handler that declines leaves the key to the widget")
            token.cancel()
            _ = twb_emit_key_pressed(controller, guint(GDK_KEY_Return), GdkModifierType(0))
            XCTAssertEqual(calls.value, 4, "a cancelled token's handler is not called")
            XCTAssertEqual(Self.keyControllers(of: gtkSwitch), 0, "nor is its controller left on the widget")
        }
    }

    /// The key controller on `widget`, the one `onEnter` added (a switch has none of its own).
    @MainActor
    private static func lastController(of widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutableRawPointer {
        keyControllerList(of: widget).last!
    }

    @MainActor
    private static func keyControllers(of widget: UnsafeMutablePointer<GtkWidget>) -> Int {
        keyControllerList(of: widget).count
    }

    @MainActor
    private static func keyControllerList(of widget: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutableRawPointer] {
        let controllers = gtk_widget_observe_controllers(widget)!
        defer { g_object_unref(UnsafeMutableRawPointer(controllers)) }
        var found: [UnsafeMutableRawPointer] = []
        for index in 0..<g_list_model_get_n_items(controllers) {
            let item = g_list_model_get_item(controllers, index)!
            g_object_unref(item)  // the widget keeps it
            if twb_instance_is_a(item, gtk_event_controller_key_get_type()) != 0 { found.append(item) }
        }
        return found
    }
}
