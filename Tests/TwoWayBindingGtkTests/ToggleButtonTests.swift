import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

final class ToggleButtonTests: GtkTestCase {
    func testToggleButton_bothWays_onceEach_noLoop() throws {
        try MainActor.assumeIsolated {
            let gtkToggle = gtk_toggle_button_new_with_label("Bold")!
            let window = GtkTest.window(gtkToggle)
            defer { GtkTest.destroy(window) }
            let isBold = Observable(false)
            let binding = try ToggleButton.wrapping(gtkToggle) <-> isBold
            let (notifyToken, activeNotifications) = GtkTest.count("notify::active", of: gtkToggle)
            defer { notifyToken.cancel() }
            let (token, notifications) = isBold.countNotifications()
            defer { token.cancel() }

            twb_signal_emit(gtkToggle, "clicked")  // as a click or Space would
            XCTAssertTrue(isBold.value)
            XCTAssertEqual(notifications.value, 1)
            XCTAssertEqual(activeNotifications(), 1, "the binding did not write back")
            XCTAssertEqual(binding._controlWriteCount, 0)

            isBold.value = false
            XCTAssertEqual(gtk_toggle_button_get_active(gtkToggle.cast()), 0)
            XCTAssertEqual(activeNotifications(), 2)
            XCTAssertEqual(notifications.value, 2, "the button's echo is not taken for the user's")
            XCTAssertEqual(binding._controlWriteCount, 1)
        }
    }

    func testACheckButtonIsNoToggleButton_inGtk4() {
        MainActor.assumeIsolated {
            let check = g_object_ref_sink(gtk_check_button_new())!
            defer { g_object_unref(check) }
            XCTAssertFalse(ToggleButton.canWrap(check), "GTK 4's check button is its own class: CheckButton binds it")
        }
    }
}
