import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

final class SpinButtonTests: GtkTestCase {
    @MainActor
    private static func makeSpinButton(_ lower: Double, _ upper: Double, digits: guint = 0) -> UnsafeMutablePointer<GtkWidget> {
        let spin = gtk_spin_button_new_with_range(lower, upper, 1)!
        gtk_spin_button_set_digits(spin.opaque, digits)
        // As built from a .ui file: new_with_range() filters typed text, the
        // default spin button does not.
        gtk_spin_button_set_numeric(spin.opaque, 0)
        return spin
    }

    func testModelOutOfRange_isClampedAndReconciled() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton(0, 50)
            let window = GtkTest.window(gtkSpin)
            defer { GtkTest.destroy(window) }
            let years = Observable(80.0)
            let (token, notifications) = years.countNotifications()
            defer { token.cancel() }

            let binding = try SpinButton.wrapping(gtkSpin).bind(with: years)
            XCTAssertEqual(gtk_spin_button_get_value(gtkSpin.opaque), 50)
            XCTAssertEqual(years.value, 50)
            XCTAssertEqual(notifications.value, 1)
            XCTAssertEqual(binding._controlWriteCount, 1)
        }
    }

    func testModelValue_isRoundedToDigits() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton(0, 50, digits: 1)
            let window = GtkTest.window(gtkSpin)
            defer { GtkTest.destroy(window) }
            let years = Observable(2.345)
            try SpinButton.wrapping(gtkSpin).bind(with: years)
            XCTAssertEqual(gtk_spin_button_get_value(gtkSpin.opaque), 2.3, accuracy: 1e-9)
            XCTAssertEqual(years.value, 2.3, accuracy: 1e-9)
            XCTAssertEqual(String(cString: gtk_editable_get_text(gtkSpin.opaque)), "2.3")
        }
    }

    func testSpinning_notifiesOnce_noLoop() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton(0, 50)
            let window = GtkTest.window(gtkSpin)
            defer { GtkTest.destroy(window) }
            let years = Observable(10.0)
            let binding = try SpinButton.wrapping(gtkSpin).bind(with: years)
            let (token, notifications) = years.countNotifications()
            defer { token.cancel() }
            let (valueHandler, valueChanges) = GtkTest.count("value-changed", of: gtkSpin)
            defer { valueHandler.cancel() }

            gtk_spin_button_spin(gtkSpin.opaque, GTK_SPIN_STEP_FORWARD, 1)  // the + button, or Up
            XCTAssertEqual(years.value, 11)
            XCTAssertEqual(notifications.value, 1)
            XCTAssertEqual(valueChanges(), 1)
            XCTAssertEqual(binding._controlWriteCount, 1)
        }
    }

    func testIntegerModel_throughTransform() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton(0, 100)
            let window = GtkTest.window(gtkSpin)
            defer { GtkTest.destroy(window) }
            let age = Observable(30)
            try SpinButton.wrapping(gtkSpin).bind(with: age, transform: .integer(invalidMessage: "whole years"))
            gtk_spin_button_spin(gtkSpin.opaque, GTK_SPIN_STEP_BACKWARD, 1)
            XCTAssertEqual(age.value, 29)
        }
    }

    func testTypedText_commitsOnActivate() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton(0, 50, digits: 1)
            let window = GtkTest.window(gtkSpin)
            defer { GtkTest.destroy(window) }
            let years = Observable(1.0)
            try SpinButton.wrapping(gtkSpin).bind(with: years, options: BindingOptions(commitPolicy: .onCommit))
            let (token, notifications) = years.countNotifications()
            defer { token.cancel() }

            gtk_editable_set_text(gtkSpin.opaque, "12.47")
            XCTAssertEqual(years.value, 1, "typing alone does not reach the value")
            twb_signal_emit(UnsafeMutableRawPointer(gtk_editable_get_delegate(gtkSpin.opaque)), "activate")
            XCTAssertEqual(years.value, 12.5, accuracy: 1e-9)
            XCTAssertEqual(notifications.value, 1)
        }
    }

    /// With commit-only updates a step (the + button, Up) is an edit like a
    /// keystroke: the model waits for Enter or focus leaving.
    func testStepping_withCommitOnly_waitsForTheCommit() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton(0, 50)
            let window = GtkTest.window(gtkSpin)
            defer { GtkTest.destroy(window) }
            let years = Observable(10.0)
            try SpinButton.wrapping(gtkSpin).bind(with: years, options: BindingOptions(commitPolicy: .onCommit))
            let (token, notifications) = years.countNotifications()
            defer { token.cancel() }

            gtk_spin_button_spin(gtkSpin.opaque, GTK_SPIN_STEP_FORWARD, 1)
            gtk_spin_button_spin(gtkSpin.opaque, GTK_SPIN_STEP_FORWARD, 1)
            XCTAssertEqual(gtk_spin_button_get_value(gtkSpin.opaque), 12)
            XCTAssertEqual(years.value, 10, "stepping alone does not reach the model")
            XCTAssertEqual(notifications.value, 0)
            twb_signal_emit(UnsafeMutableRawPointer(gtk_editable_get_delegate(gtkSpin.opaque)), "activate")
            XCTAssertEqual(years.value, 12)
            XCTAssertEqual(notifications.value, 1)
        }
    }

    func testTypedText_commitsOnFocusLeave() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton(0, 50)
            let other = gtk_entry_new()!
            let window = GtkTest.window(gtkSpin, other, present: true)
            defer { GtkTest.destroy(window) }
            let years = Observable(1.0)
            try SpinButton.wrapping(gtkSpin).bind(with: years)

            gtk_widget_grab_focus(gtkSpin)
            GtkTest.pump()
            gtk_editable_set_text(gtkSpin.opaque, "7")
            XCTAssertEqual(years.value, 1)
            GtkTest.focus(gtkSpin, thenMoveTo: other)
            XCTAssertEqual(years.value, 7)
        }
    }

    func testTypedPlaceholderValue_answersAnUnansweredQuestion() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton(0, 60, digits: 1)  // "0.0", as in the app
            let other = gtk_entry_new()!
            let window = GtkTest.window(gtkSpin, other, present: true)
            defer { GtkTest.destroy(window) }
            let years = Observable<Double?>(nil)
            try SpinButton.wrapping(gtkSpin).bind(with: years, transform: .optional(.identity, placeholder: 0))
            XCTAssertEqual(gtk_spin_button_get_value(gtkSpin.opaque), 0)

            // Focus passing through leaves the question unanswered.
            GtkTest.focus(gtkSpin, thenMoveTo: other)
            XCTAssertNil(years.value)

            // A 0 typed over the placeholder 0 is an answer.
            gtk_widget_grab_focus(gtkSpin)
            GtkTest.pump()
            gtk_editable_set_text(gtkSpin.opaque, "0")
            twb_signal_emit(UnsafeMutableRawPointer(gtk_editable_get_delegate(gtkSpin.opaque)), "activate")
            XCTAssertEqual(years.value, 0)
        }
    }

    func testCommitTypedText_commitsLikeEnter() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton(0, 60, digits: 1)
            let window = GtkTest.window(gtkSpin, present: true)
            defer { GtkTest.destroy(window) }
            let years = Observable<Double?>(nil)
            let spin = try SpinButton.wrapping(gtkSpin)
            spin.bind(with: years, transform: .optional(.identity, placeholder: 0))

            gtk_widget_grab_focus(gtkSpin)
            GtkTest.pump()
            gtk_editable_set_text(gtkSpin.opaque, "0")
            spin.commitTypedText()
            XCTAssertEqual(years.value, 0, "a shortcut takes the typed answer, placeholder or not")

            gtk_editable_set_text(gtkSpin.opaque, "7.5")
            spin.commitTypedText()
            XCTAssertEqual(years.value, 7.5)
        }
    }

    func testRefusalSurvivesGtksOwnUpdate_untilTheUserTypesANumber() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton(0, 60, digits: 1)
            let other = gtk_entry_new()!
            let window = GtkTest.window(gtkSpin, other, present: true)
            defer { GtkTest.destroy(window) }
            let years = Observable(5.0)
            let spin = try SpinButton.wrapping(gtkSpin)
            let binding = spin.bind(with: years)

            gtk_widget_grab_focus(gtkSpin)
            GtkTest.pump()
            gtk_editable_set_text(gtkSpin.opaque, "abc")
            // Leaving runs our commit and GTK's own update, which parses the
            // value it wrote back ("5.0"): that is not the user's answer.
            GtkTest.focus(gtkSpin, thenMoveTo: other)
            XCTAssertFalse(binding.validation.value.isValid)
            spin.commitTypedText()
            XCTAssertFalse(binding.validation.value.isValid, "a shortcut does not clear a refusal")
            XCTAssertEqual(years.value, 5)

            gtk_widget_grab_focus(gtkSpin)
            GtkTest.pump()
            gtk_editable_set_text(gtkSpin.opaque, "7.5")
            spin.commitTypedText()
            XCTAssertTrue(binding.validation.value.isValid)
            XCTAssertEqual(years.value, 7.5)
        }
    }

    func testRefusalSurvivesGtksOwnUpdate_whenTheValueIsFinerThanItsDigits() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton(0, 60, digits: 1)
            let other = gtk_entry_new()!
            let window = GtkTest.window(gtkSpin, other, present: true)
            defer { GtkTest.destroy(window) }
            // 1.05 set before the binding (GTK's own input keeps it), shown "1.1".
            gtk_spin_button_set_value(gtkSpin.opaque, 1.05)
            let years = Observable(0.0)
            let spin = try SpinButton.wrapping(gtkSpin)
            let binding = spin.bind(with: years, options: BindingOptions(initialSync: .controlToModel))

            gtk_widget_grab_focus(gtkSpin)
            GtkTest.pump()
            gtk_editable_set_text(gtkSpin.opaque, "7x")
            // GTK's update after the refusal parses the "1.1" it wrote back:
            // moving 1.05 to 1.1 must not read as the refusal corrected.
            GtkTest.focus(gtkSpin, thenMoveTo: other)
            XCTAssertFalse(binding.validation.value.isValid)
            XCTAssertEqual(gtk_spin_button_get_value(gtkSpin.opaque), 1.05)
        }
    }

    func testAModelValueReplacesATypedNumber_evenOneShownTheSame() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton(0, 60, digits: 1)
            let other = gtk_entry_new()!
            let window = GtkTest.window(gtkSpin, other, present: true)
            defer { GtkTest.destroy(window) }
            let years = Observable<Double?>(0)
            let spin = try SpinButton.wrapping(gtkSpin)
            spin.bind(with: years, transform: .optional(.identity, placeholder: 0))

            // A number typed and parsed, not yet committed (it clamps to the 0 shown)…
            gtk_widget_grab_focus(gtkSpin)
            GtkTest.pump()
            gtk_editable_set_text(gtkSpin.opaque, "-4")
            gtk_spin_button_update(gtkSpin.opaque)
            XCTAssertEqual(years.value, 0)
            // …is replaced by the model's "unanswered", though its placeholder
            // shows the same 0.
            years.value = nil
            GtkTest.focus(gtkSpin, thenMoveTo: other)
            XCTAssertNil(years.value, "leaving commits nothing the model replaced")
        }
    }

    func testModelValue_isRoundedAsTheTextShowsIt_halfToEven() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton(0, 60, digits: 1)
            let window = GtkTest.window(gtkSpin)
            defer { GtkTest.destroy(window) }
            // 17.25 is exact in binary: printf shows "17.2"; 0.15 is just
            // below a half: "0.1". The model follows the text.
            let years = Observable(17.25)
            try SpinButton.wrapping(gtkSpin).bind(with: years)
            XCTAssertEqual(String(cString: gtk_editable_get_text(gtkSpin.opaque)), "17.2")
            XCTAssertEqual(years.value, 17.2)
            years.value = 0.15
            XCTAssertEqual(String(cString: gtk_editable_get_text(gtkSpin.opaque)), "0.1")
            XCTAssertEqual(years.value, 0.1)
        }
    }

    func testTextThatIsNotANumber_leavesModelAndReportsInvalid() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = Self.makeSpinButton(0, 50)
            let window = GtkTest.window(gtkSpin)
            defer { GtkTest.destroy(window) }
            let years = Observable(5.0)
            let binding = try SpinButton.wrapping(gtkSpin).bind(with: years)
            let (token, notifications) = years.countNotifications()
            defer { token.cancel() }

            gtk_editable_set_text(gtkSpin.opaque, "abc")
            gtk_spin_button_update(gtkSpin.opaque)
            XCTAssertEqual(years.value, 5)
            XCTAssertEqual(notifications.value, 0)
            XCTAssertEqual(binding.validation.value.message?.contains("not a number"), true)
            XCTAssertEqual(binding.validation.value.message, "“abc” is not a number")

            gtk_editable_set_text(gtkSpin.opaque, "8")
            gtk_spin_button_update(gtkSpin.opaque)
            XCTAssertEqual(years.value, 8)
            XCTAssertEqual(binding.validation.value, .valid)

            // Pasted text of any length is quoted by its start only.
            gtk_editable_set_text(gtkSpin.opaque, String(repeating: "abc", count: 33_334))
            gtk_spin_button_update(gtkSpin.opaque)
            XCTAssertEqual(binding.validation.value.message, "“abcabcabcabcabcabcab…” is not a number")

            gtk_editable_set_text(gtkSpin.opaque, "x")
            gtk_spin_button_update(gtkSpin.opaque)
            XCTAssertFalse(binding.validation.value.isValid)
            years.value = 9
            XCTAssertEqual(binding.validation.value, .valid, "a new model value replaces the bad input")
        }
    }
}
