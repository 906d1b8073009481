import CTwoWayBindingGtkShims
import TwoWayBinding
import GtkAppShell
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// `ActionMap`: plain, string-parameter and string-state actions, as a menu
/// or a shortcut activates them, each added as a token that takes it out again.
final class ActionTests: GtkTestCase {
    func testEachKindOfActionReachesItsHandler_andAChoiceKeepsItsState() throws {
        try MainActor.assumeIsolated {
            let group = g_simple_action_group_new()!
            defer { g_object_unref(UnsafeMutableRawPointer(group)) }
            let actions = try ActionMap(raw: UnsafeMutableRawPointer(group))
            let bag = ObservationToken.Bag()
            var log: [String] = []
            actions.add("submit") { log.append("submit") }.store(in: bag)
            actions.add("open", parameter: { log.append("open \($0)") }).store(in: bag)
            actions.addChoice("language", state: "English (en)") { log.append("language \($0)") }.store(in: bag)

            actions.activate("submit")
            actions.activate("open", parameter: "/tmp/visit.md")
            // A radio menu item activates with its target: the state changes to it.
            actions.activate("language", parameter: "Deutsch (de)")
            XCTAssertEqual(log, ["submit", "open /tmp/visit.md", "language Deutsch (de)"])
            XCTAssertEqual(actions.state(of: "language"), "Deutsch (de)")
            XCTAssertNil(actions.state(of: "submit"), "a plain action has no state")

            // A disabled action does not run.
            XCTAssertTrue(actions.isEnabled("submit"))
            actions.setEnabled("submit", false)
            XCTAssertFalse(actions.isEnabled("submit"))
            actions.activate("submit")
            XCTAssertEqual(log.count, 3)
        }
    }

    func testAnActionLeavesItsMap_whenItsTokenEnds() throws {
        try MainActor.assumeIsolated {
            let group = g_simple_action_group_new()!
            defer { g_object_unref(UnsafeMutableRawPointer(group)) }
            let actions = try ActionMap(raw: UnsafeMutableRawPointer(group))
            var runs = 0
            var token: ObservationToken? = actions.add("submit") { runs += 1 }
            XCTAssertNotNil(token)
            XCTAssertEqual(g_action_group_has_action(OpaquePointer(group), "submit"), TWB_TRUE)
            token = nil
            XCTAssertEqual(g_action_group_has_action(OpaquePointer(group), "submit"), TWB_FALSE)
            actions.activate("submit")
            XCTAssertEqual(runs, 0)

            // An ended token takes out only its own action, not a later one of the same name.
            let first = actions.add("export") { runs += 1 }
            let second = actions.add("export") { runs += 10 }
            first.cancel()
            actions.activate("export")
            XCTAssertEqual(runs, 10)
            second.cancel()
            XCTAssertFalse(actions.isEnabled("export"), "gone, so not enabled")
        }
    }

    func testAHandlerGoesWithItsAction() throws {
        try MainActor.assumeIsolated {
            let baseline = Signal._liveClosureBoxCount
            let group = g_simple_action_group_new()!
            let token = try ActionMap(raw: UnsafeMutableRawPointer(group)).add("open", parameter: { _ in })
            XCTAssertEqual(Signal._liveClosureBoxCount, baseline + 1)
            token.cancel()
            XCTAssertEqual(Signal._liveClosureBoxCount, baseline)

            // A map that goes first takes its actions' handlers with it; the
            // token then has nothing left to do.
            let late = try ActionMap(raw: UnsafeMutableRawPointer(group)).add("open") {}
            XCTAssertEqual(Signal._liveClosureBoxCount, baseline + 1)
            g_object_unref(UnsafeMutableRawPointer(group))
            late.cancel()
            XCTAssertEqual(Signal._liveClosureBoxCount, baseline)
        }
    }

    func testEnabledFollowsAnObservable() throws {
        try MainActor.assumeIsolated {
            let group = g_simple_action_group_new()!
            defer { g_object_unref(UnsafeMutableRawPointer(group)) }
            let actions = try ActionMap(raw: UnsafeMutableRawPointer(group))
            let bag = ObservationToken.Bag()
            let canUndo = Observable(false)
            actions.add("undo") {}.store(in: bag)
            let binding = actions.bindEnabled("undo", to: canUndo)
            XCTAssertFalse(actions.isEnabled("undo"), "the observable's value at once")
            canUndo.value = true
            XCTAssertTrue(actions.isEnabled("undo"))
            binding.cancel()
            canUndo.value = false
            XCTAssertTrue(actions.isEnabled("undo"), "an ended binding no longer follows")
        }
    }

    func testAWindowWithoutActions_isRefusedWithAClearError() throws {
        try MainActor.assumeIsolated {
            let window = try Window.wrapping(gtk_window_new()!)
            defer { gtk_window_destroy(window.pointer!.cast(to: GtkWindow.self)) }
            XCTAssertThrowsError(try ActionMap(of: window)) { error in
                XCTAssertEqual(error as? WidgetError, .wrongType(expected: "GActionMap", actual: "GtkWindow"))
                XCTAssertEqual("\(error)", "a GtkWindow is not a GActionMap")
            }
        }
    }

    func testAnApplicationWindowsActions_andTheApplicationsShortcuts() throws {
        try MainActor.assumeIsolated {
            let app = Application(id: "io.github.surveyform.ActionTest", flags: .nonUnique)
            // Registering starts the application up, which its windows need.
            XCTAssertEqual(g_application_register(app.pointer.cast(to: GApplication.self), nil, nil), TWB_TRUE)
            let window = try Window.wrapping(gtk_application_window_new(app.pointer)!)
            defer { gtk_window_destroy(window.pointer!.cast(to: GtkWindow.self)) }
            var runs = 0
            let token = try ActionMap(of: window).add("submit") { runs += 1 }
            defer { token.cancel() }
            // The window's actions are what its widgets reach as `win.*`.
            XCTAssertEqual(gtk_widget_activate_action_variant(window.pointer, "win.submit", nil), TWB_TRUE)
            XCTAssertEqual(runs, 1)

            let appToken = ActionMap(of: app).add("quit") {}
            defer { appToken.cancel() }
            app.setAccelerators(["<Control>q", "<Control>w"], for: "app.quit")
            XCTAssertEqual(app.accelerators(for: "app.quit"), ["<Control>q", "<Control>w"])
            app.setAccelerators([], for: "app.quit")
            XCTAssertEqual(app.accelerators(for: "app.quit"), [])
        }
    }
}
