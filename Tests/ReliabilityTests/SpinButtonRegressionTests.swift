import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// The two spin button faults the property test found, pinned down.
final class SpinButtonRegressionTests: GtkTestCase {
    @MainActor
    private static func makeSpinButton() -> UnsafeMutablePointer<GtkWidget> {
        let spin = gtk_spin_button_new(gtk_adjustment_new(0, 0, 10, 0.1, 1, 0), 0.1, 1)!
        gtk_spin_button_set_numeric(spin.opaque, TWB_FALSE)
        return spin
    }

    /// Three steps of 0.1 leave GTK's adjustment at 0.30000000000000004; the
    /// model gets 0.3, what the text shows, and a later set of 0.3 sticks.
    func testFractionalSteps_giveTheModelTheValueTheTextShows() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton()
            let window = GtkTest.window([gtkSpin])
            defer { GtkTest.destroy(window) }
            let rating = Observable(0.0)
            try SpinButton.wrapping(gtkSpin).bind(with: rating)
            var notified: [Double] = []
            let token = rating.observe { notified.append($0) }
            defer { token.cancel() }

            for _ in 0..<3 { gtk_spin_button_spin(gtkSpin.opaque, GTK_SPIN_STEP_FORWARD, 0) }
            XCTAssertEqual(String(cString: gtk_editable_get_text(gtkSpin.opaque)), "0.3")
            XCTAssertEqual(rating.value, 0.3, "not 0.1 + 0.1 + 0.1")
            XCTAssertEqual(notified, [0.1, 0.2, 0.3])

            rating.value = 0.4
            rating.value = 0.3
            XCTAssertEqual(rating.value, 0.3, "the model keeps the value it was given")
            XCTAssertEqual(notified, [0.1, 0.2, 0.3, 0.4, 0.3], "no correction back to 0.30000000000000004")
        }
    }

    /// Enter on text that is not a number: GTK puts the value back in the
    /// text, and the refusal stays shown (the binding's own second update
    /// used to accept GTK's restored text and clear it at once).
    func testEnterOnRefusedText_keepsTheFieldInvalid() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton()
            let window = GtkTest.window([gtkSpin])
            defer { GtkTest.destroy(window) }
            XCTAssertTrue(GtkTest.present(window))
            let rating = Observable(5.0)
            let binding = try SpinButton.wrapping(gtkSpin).bind(with: rating)
            let enter = { twb_signal_emit(UnsafeMutableRawPointer(gtk_editable_get_delegate(gtkSpin.opaque)), "activate") }

            gtk_widget_grab_focus(gtkSpin)
            gtk_editable_set_text(gtkSpin.opaque, "abc")
            enter()
            XCTAssertEqual(String(cString: gtk_editable_get_text(gtkSpin.opaque)), "5.0", "GTK restores the value's text")
            XCTAssertEqual(rating.value, 5)
            XCTAssertEqual(binding.validation.value, .invalid("“abc” is not a number"))

            GtkTest.pump()
            XCTAssertFalse(binding.validation.value.isValid, "the refusal is still shown after the main loop ran")

            gtk_widget_grab_focus(gtkSpin)
            gtk_editable_set_text(gtkSpin.opaque, "7")
            enter()
            XCTAssertEqual(rating.value, 7)
            XCTAssertEqual(binding.validation.value, .valid, "a number typed afterwards clears it")
        }
    }
}
