import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// `Action`: plain, string-parameter and string-state actions, as a menu
/// or a shortcut activates them through their map.
final class ActionTests: GtkTestCase {
    func testEachKindOfActionReachesItsHandler_andAChoiceKeepsItsState() {
        MainActor.assumeIsolated {
            let group = g_simple_action_group_new()!
            defer { g_object_unref(UnsafeMutableRawPointer(group)) }
            let map = OpaquePointer(group)
            var log: [String] = []
            let plain = Action.add("submit", to: map) { log.append("submit") }
            Action.add("open", to: map, parameter: { log.append("open \($0)") })
            Action.addChoice("language", to: map, state: "English (en)") { log.append("language \($0)") }

            g_action_group_activate_action(map, "submit", nil)
            g_action_group_activate_action(map, "open", g_variant_new_string("/tmp/visit.md"))
            // A radio menu item activates with its target: the state changes to it.
            g_action_group_activate_action(map, "language", g_variant_new_string("Deutsch (de)"))
            XCTAssertEqual(log, ["submit", "open /tmp/visit.md", "language Deutsch (de)"])
            let state = g_action_group_get_action_state(map, "language")!
            defer { g_variant_unref(state) }
            XCTAssertEqual(String(cString: g_variant_get_string(state, nil)), "Deutsch (de)")

            // A disabled action does not run.
            g_simple_action_set_enabled(plain, TWB_FALSE)
            g_action_group_activate_action(map, "submit", nil)
            XCTAssertEqual(log.count, 3)
        }
    }

    func testAHandlerGoesWithItsAction() {
        MainActor.assumeIsolated {
            let baseline = Signal.liveClosureBoxCount
            let group = g_simple_action_group_new()!
            Action.add("open", to: OpaquePointer(group), parameter: { _ in })
            XCTAssertEqual(Signal.liveClosureBoxCount, baseline + 1)
            g_object_unref(UnsafeMutableRawPointer(group))
            XCTAssertEqual(Signal.liveClosureBoxCount, baseline)
        }
    }
}
