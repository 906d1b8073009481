import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// A spin button for a number that may be left unanswered: `nil` is empty
/// text, clearing the text is `nil`, and a rule's range refuses, not clamps.
final class SpinButtonAllowingEmptyTests: GtkTestCase {
    @MainActor
    private static func makeSpinButton() -> UnsafeMutablePointer<GtkWidget> {
        let spin = gtk_spin_button_new_with_range(0, 120, 1)!
        gtk_spin_button_set_numeric(spin.opaque, 0)
        return spin
    }

    @MainActor
    private static func text(_ spin: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: gtk_editable_get_text(spin.opaque))
    }

    @MainActor
    private static func activate(_ spin: UnsafeMutablePointer<GtkWidget>) {
        twb_signal_emit(UnsafeMutableRawPointer(gtk_editable_get_delegate(spin.opaque)), "activate")
    }

    func testNilShowsAsEmptyTextAndAValueAsItself() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton()
            let window = GtkTest.window(gtkSpin)
            defer { GtkTest.destroy(window) }
            let age = Observable<Double?>(nil)
            let binding = try SpinButton.wrapping(gtkSpin).allowingEmpty.bind(with: age)
            XCTAssertEqual(Self.text(gtkSpin), "")
            XCTAssertNil(age.value, "reading the empty control back leaves the model unanswered")

            age.value = 0
            XCTAssertEqual(Self.text(gtkSpin), "0", "zero is an answer, unlike empty text")
            age.value = nil
            XCTAssertEqual(Self.text(gtkSpin), "")
            age.value = 42
            XCTAssertEqual(Self.text(gtkSpin), "42")
            XCTAssertEqual(binding._controlWriteCount, 4)
        }
    }

    func testClearingTheTextUnanswers() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton()
            let window = GtkTest.window(gtkSpin)
            defer { GtkTest.destroy(window) }
            let age = Observable<Double?>(30)
            let binding = try SpinButton.wrapping(gtkSpin).allowingEmpty.bind(with: age)
            let (token, notifications) = age.countNotifications()
            defer { token.cancel() }

            gtk_editable_set_text(gtkSpin.opaque, "")
            Self.activate(gtkSpin)
            XCTAssertNil(age.value)
            XCTAssertEqual(Self.text(gtkSpin), "", "GTK's own update does not write 0 back")
            XCTAssertEqual(notifications.value, 1)
            XCTAssertTrue(binding.validation.value.isValid)

            gtk_editable_set_text(gtkSpin.opaque, "7")
            Self.activate(gtkSpin)
            XCTAssertEqual(age.value, 7)
        }
    }

    func testTheArrowsStepFromEmptyToAValue() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton()
            let window = GtkTest.window(gtkSpin)
            defer { GtkTest.destroy(window) }
            let age = Observable<Double?>(nil)
            try SpinButton.wrapping(gtkSpin).allowingEmpty.bind(with: age)

            gtk_spin_button_spin(gtkSpin.opaque, GTK_SPIN_STEP_FORWARD, 1)
            XCTAssertEqual(age.value, 1)
            XCTAssertEqual(Self.text(gtkSpin), "1")
        }
    }

    func testANumberOutsideARuledRangeIsRefusedWithItsMessage() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton()
            let window = GtkTest.window(gtkSpin)
            defer { GtkTest.destroy(window) }
            let age = Observable<Double?>(nil)
            let spin = try SpinButton.wrapping(gtkSpin)
            spin.outOfRangeMessage = { _ in "Age must be between 0 and 120." }
            let binding = spin.allowingEmpty.bind(with: age)

            gtk_editable_set_text(gtkSpin.opaque, "150")
            Self.activate(gtkSpin)
            XCTAssertNil(age.value, "the refused number is not the answer, nor clamped into one")
            XCTAssertEqual(binding.validation.value.message, "Age must be between 0 and 120.")

            gtk_editable_set_text(gtkSpin.opaque, "120")
            Self.activate(gtkSpin)
            XCTAssertEqual(age.value, 120)
            XCTAssertTrue(binding.validation.value.isValid)
        }
    }

    func testWithoutEmptyAllowedClearedTextIsRefused() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton()
            let window = GtkTest.window(gtkSpin)
            defer { GtkTest.destroy(window) }
            let years = Observable(5.0)
            let binding = try SpinButton.wrapping(gtkSpin).bind(with: years)
            gtk_editable_set_text(gtkSpin.opaque, "")
            Self.activate(gtkSpin)
            XCTAssertEqual(years.value, 5)
            XCTAssertFalse(binding.validation.value.isValid)
        }
    }
}
