import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// Switch and CheckButton: `notify::active` (instance, GParamSpec, user_data).
final class ToggleTests: GtkTestCase {
    func testSwitch_bothWays_onceEach_noLoop() throws {
        try MainActor.assumeIsolated {
            let gtkSwitch = gtk_switch_new()!
            let window = GtkTest.window(gtkSwitch)
            defer { GtkTest.destroy(window) }
            let currentEmployer = Observable(true)
            let binding = try Switch.wrapping(gtkSwitch).bind(with: currentEmployer)
            let (notifyHandler, activeNotifications) = GtkTest.count("notify::active", of: gtkSwitch)
            defer { notifyHandler.cancel() }
            XCTAssertEqual(gtk_switch_get_active(gtkSwitch.opaque), 1)

            let (token, notifications) = currentEmployer.countNotifications()
            defer { token.cancel() }
            gtk_switch_set_active(gtkSwitch.opaque, 0)  // as a click would
            XCTAssertFalse(currentEmployer.value)
            XCTAssertEqual(notifications.value, 1)
            XCTAssertEqual(activeNotifications(), 1, "the binding did not write back")

            currentEmployer.value = true
            XCTAssertEqual(gtk_switch_get_active(gtkSwitch.opaque), 1)
            XCTAssertEqual(activeNotifications(), 2)
            XCTAssertEqual(notifications.value, 2)
            XCTAssertEqual(binding._controlWriteCount, 2)
        }
    }

    func testCheckButton_bothWays_onceEach() throws {
        try MainActor.assumeIsolated {
            let gtkCheck = gtk_check_button_new_with_label("Agree")!
            let window = GtkTest.window(gtkCheck)
            defer { GtkTest.destroy(window) }
            let agreed = Observable(false)
            let check = try CheckButton.wrapping(gtkCheck)
            let binding = check.bind(with: agreed)
            let (token, notifications) = agreed.countNotifications()
            defer { token.cancel() }

            twb_signal_emit(gtkCheck, "activate")  // as a click or Space would
            XCTAssertTrue(agreed.value)
            XCTAssertEqual(notifications.value, 1)
            XCTAssertEqual(binding._controlWriteCount, 0)

            agreed.value = false
            XCTAssertFalse(check.isChecked)
            XCTAssertEqual(binding._controlWriteCount, 1)
            XCTAssertEqual(notifications.value, 2)
        }
    }

    func testARadioCheckButton_isARadioToAScreenReader_andBindsAsAnyCheckButton() throws {
        try MainActor.assumeIsolated {
            let radio = CheckButton(radioLabel: "Yes")
            let other = CheckButton(radioLabel: "No")
            let plain = CheckButton(label: "Agree")
            let box = Box(vertical: true)
            box.append(radio)
            box.append(other)
            box.append(plain)
            other.joinGroup(of: radio)
            let window = GtkTest.window(try XCTUnwrap(box.pointer))
            defer { GtkTest.destroy(window) }
            XCTAssertEqual(gtk_accessible_get_accessible_role(OpaquePointer(radio.pointer)), GTK_ACCESSIBLE_ROLE_RADIO)
            XCTAssertEqual(gtk_accessible_get_accessible_role(OpaquePointer(plain.pointer)), GTK_ACCESSIBLE_ROLE_CHECKBOX)
            let chosen = Observable(false)
            radio.bind(with: chosen)
            twb_signal_emit(radio.pointer, "activate")
            XCTAssertTrue(chosen.value)
            other.isChecked = true
            XCTAssertFalse(chosen.value, "one of the group at most")
        }
    }
}
