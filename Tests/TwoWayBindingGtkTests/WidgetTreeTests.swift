import CTwoWayBindingGtkShims
import GtkTestSupport
import TwoWayBinding
import TwoWayBindingGtk
import XCTest

/// Finding one's way in the widget tree and in a window's focus, and living
/// as long as a widget: what an app needs to move focus on by itself, find
/// the control around a focused part, and start work after the first frame.
final class WidgetTreeTests: GtkTestCase {
    func testAncestors_byTypeAndByStyleClass_wrapOnlyTheMatch() throws {
        try MainActor.assumeIsolated {
            let card = Box(vertical: true)
            let inner = Box(vertical: true)
            let label = Label("Name")
            card.append(inner)
            inner.append(label)
            card.addStyleClass("question")

            XCTAssertTrue(label.ancestor(withStyleClass: "question") === card)
            XCTAssertTrue(card.ancestor(withStyleClass: "question") === card, "a widget is its own nearest")
            XCTAssertNil(label.ancestor(withStyleClass: "answer"))
            XCTAssertTrue(label.ancestor(ofType: Box.self) === inner, "the nearest box, not the outer one")
            XCTAssertNil(label.ancestor(ofType: SpinButton.self))

            XCTAssertTrue(label.isInside(card))
            XCTAssertTrue(label.isInside(label))
            XCTAssertFalse(card.isInside(label))
            XCTAssertNil(label.enclosingWindow, "not in a window yet")
            let window = try Window.wrapping(GtkTest.window(card.pointer!))
            defer { GtkTest.destroy(window.pointer!) }
            XCTAssertTrue(label.enclosingWindow === window)
        }
    }

    func testFocus_isFoundInItsControl_andMovesAsTabDoes() throws {
        try MainActor.assumeIsolated {
            let first = Entry()
            let spin = SpinButton(range: 0...10, step: 1)
            let last = Entry()
            let window = try Window.wrapping(GtkTest.window(first.pointer!, spin.pointer!, last.pointer!))
            defer { window.close() }
            GtkTest.activate(window.pointer!)
            first.grabFocus()
            GtkTest.pump()
            XCTAssertTrue(window.focusedWidget?.isInside(first) == true)
            XCTAssertNil(window.focusedWidget?.ancestor(ofType: SpinButton.self))

            XCTAssertTrue(window.moveFocus(.forward))
            // The spin button's text takes focus; the spin button is found around it.
            let focused = try XCTUnwrap(window.focusedWidget)
            XCTAssertFalse(focused === spin)
            XCTAssertTrue(focused.ancestor(ofType: SpinButton.self) === spin)

            window.moveFocus(.forward)
            XCTAssertTrue(window.focusedWidget?.isInside(last) == true)
            window.moveFocus(.backward)
            XCTAssertTrue(window.focusedWidget?.ancestor(ofType: SpinButton.self) === spin)
        }
    }

    func testOnDestroy_isHeardOnce_andNotAfterItsTokenEnds() throws {
        try MainActor.assumeIsolated {
            let heard = Label()
            let silenced = Label()
            let window = try Window.wrapping(GtkTest.window(heard.pointer!, silenced.pointer!))
            var calls: [String] = []
            let kept = heard.onDestroy { calls.append("heard") }
            silenced.onDestroy { calls.append("silenced") }.cancel()
            GtkTest.destroy(window.pointer!)
            GtkTest.pump()
            XCTAssertEqual(calls, ["heard"])
            kept.cancel()
            let late = heard.onDestroy { calls.append("late") }
            GtkTest.pump()
            late.cancel()
            XCTAssertEqual(calls, ["heard"], "a destroyed widget is destroyed no more")
        }
    }

    func testAKeptToken_endsWithItsWidget() throws {
        try MainActor.assumeIsolated {
            let label = Label()
            let window = try Window.wrapping(GtkTest.window(label.pointer!))
            var ended = 0
            ObservationToken { ended += 1 }.keep(with: label)
            GtkTest.pump()
            XCTAssertEqual(ended, 0, "kept while the widget lives")
            GtkTest.destroy(window.pointer!)
            GtkTest.pump(until: { ended == 1 })
            XCTAssertEqual(ended, 1, "ended when the widget went")

            ObservationToken { ended += 1 }.keep(with: label)
            XCTAssertEqual(ended, 2, "a destroyed widget keeps nothing: the token ends at once")
        }
    }

    func testOnFirstFrame_runsOnceAfterTheWindowIsDrawn() throws {
        try MainActor.assumeIsolated {
            let window = try Window.wrapping(GtkTest.window(Label("Hello").pointer!))
            defer { window.close() }
            var frames = 0
            var cancelledFrames = 0
            let token = window.onFirstFrame { frames += 1 }
            window.onFirstFrame { cancelledFrames += 1 }.cancel()
            GtkTest.pump()
            XCTAssertEqual(frames, 0, "not before the window is shown")
            window.present()
            XCTAssertTrue(GtkTest.pump(until: { frames == 1 }, timeout: 5), "the first frame was drawn")
            // Drawing again does not call it again.
            window.defaultSize = (500, 400)
            window.isMaximized = true
            GtkTest.pump(until: { false }, timeout: 0.3)
            XCTAssertEqual(frames, 1)
            XCTAssertEqual(cancelledFrames, 0)
            token.cancel()

            // Asked of a window drawn already, it waits for the next frame.
            var later = 0
            let next = window.onFirstFrame { later += 1 }
            defer { next.cancel() }
            XCTAssertEqual(later, 0)
            XCTAssertTrue(GtkTest.pump(until: { later == 1 }, timeout: 5))
        }
    }

    func testCheckButtons_joinedInAGroup_checkOneAtATime_andMayJoinAgain() throws {
        try MainActor.assumeIsolated {
            let small = CheckButton(label: "Small")
            let medium = CheckButton(label: "Medium")
            let large = CheckButton(label: "Large")
            let window = try Window.wrapping(GtkTest.window(small.pointer!, medium.pointer!, large.pointer!))
            defer { GtkTest.destroy(window.pointer!) }
            medium.joinGroup(of: small)
            large.joinGroup(of: small)
            small.isChecked = true
            large.isChecked = true
            XCTAssertEqual([small, medium, large].map(\.isChecked), [false, false, true])
            // Joining the group it is in again must not tie GTK's list in a loop.
            large.joinGroup(of: small)
            medium.isChecked = true
            XCTAssertEqual([small, medium, large].map(\.isChecked), [false, true, false])
            small.joinGroup(of: small)
            small.isChecked = true
            XCTAssertEqual([small, medium, large].map(\.isChecked), [true, false, false])
        }
    }
}
