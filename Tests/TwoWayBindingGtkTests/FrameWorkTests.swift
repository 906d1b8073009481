import CTwoWayBindingGtkShims
import GtkTestSupport
import TwoWayBinding
import TwoWayBindingGtk
import XCTest

/// Work put off until a widget's first frame is painted (`afterFirstFrame`).
final class FrameWorkTests: GtkTestCase {
    func testWorkAfterTheFirstFrame_runsOnceThatFrameIsPainted_onceOnly_andNeverForAHiddenWidget() throws {
        try MainActor.assumeIsolated {
            let shown = Box(vertical: true)
            let hidden = Box(vertical: true)
            hidden.isVisible = false
            let window = GtkTest.window(try XCTUnwrap(shown.pointer), try XCTUnwrap(hidden.pointer))
            defer { GtkTest.destroy(window) }
            var runs = 0, hiddenRuns = 0, paints = 0
            var paintsAtRun: Int?
            shown.afterFirstFrame {
                runs += 1
                paintsAtRun = paints
            }
            hidden.afterFirstFrame { hiddenRuns += 1 }
            GtkTest.pump()
            XCTAssertEqual(runs, 0, "nothing is drawn before the window is shown")

            gtk_widget_realize(window)
            let clock = try XCTUnwrap(gtk_widget_get_frame_clock(window))
            let painting = try Signal.connect(UnsafeMutableRawPointer(clock), signal: "after-paint") { paints += 1 }
            defer { painting.cancel() }
            GtkTest.activate(window)
            XCTAssertTrue(GtkTest.pump(until: { runs == 1 }, timeout: 5), "run after the first frame")
            XCTAssertGreaterThanOrEqual(paintsAtRun ?? 0, 1, "once that frame was painted, not before")

            let painted = paints
            gtk_widget_queue_draw(window)
            XCTAssertTrue(GtkTest.pump(until: { paints > painted }, timeout: 5))
            GtkTest.pump()
            XCTAssertEqual(runs, 1, "only once")
            XCTAssertEqual(hiddenRuns, 0, "a widget never shown never runs it")
        }
    }
}
