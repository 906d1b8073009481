import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

final class ValidationTests: GtkTestCase {
    func testShowValidation_setsCSSClassMessageAndAccessibleState() throws {
        try MainActor.assumeIsolated {
            let gtkSpin = gtk_spin_button_new(nil, 1, 0)!
            gtk_spin_button_set_range(gtkSpin.opaque, 0, 50)
            let gtkMessage = gtk_label_new(nil)!
            let window = GtkTest.window(gtkSpin, gtkMessage)
            defer { GtkTest.destroy(window) }
            let spin = try SpinButton.wrapping(gtkSpin)
            let years = Observable(3.0)
            let binding = spin.bind(with: years)
            spin.showValidation(binding.validation, message: try Label.wrapping(gtkMessage))
            let accessible = gtkSpin.opaque
            XCTAssertEqual(gtk_widget_has_css_class(gtkSpin, "error"), 0)
            XCTAssertEqual(twb_test_accessible_is_invalid(accessible), 0)

            gtk_editable_set_text(gtkSpin.opaque, "three")
            gtk_spin_button_update(gtkSpin.opaque)
            XCTAssertEqual(years.value, 3)
            XCTAssertEqual(gtk_widget_has_css_class(gtkSpin, "error"), 1)
            XCTAssertEqual(try Label.wrapping(gtkMessage).text, "“three” is not a number")
            XCTAssertEqual(twb_test_accessible_is_invalid(accessible), 1)
            XCTAssertEqual(twb_test_accessible_has_description(accessible, "“three” is not a number"), 1)

            years.value = 4
            XCTAssertEqual(gtk_widget_has_css_class(gtkSpin, "error"), 0)
            XCTAssertEqual(try Label.wrapping(gtkMessage).text, "")
            XCTAssertEqual(twb_test_accessible_is_invalid(accessible), 0)
            XCTAssertEqual(twb_test_accessible_has_description(accessible, "“three” is not a number"), 0)
        }
    }

    func testAMessageIsReadBeforeTheDescription_whichComesBackAlone() throws {
        try MainActor.assumeIsolated {
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            defer { GtkTest.destroy(window) }
            let entry = try Entry.wrapping(gtkEntry)
            entry.accessibleDescription = "As on the insurance card"
            let validation = Observable(FieldValidation.valid)
            entry.showValidation(validation)
            let accessible = gtkEntry.opaque
            XCTAssertEqual(twb_test_accessible_has_description(accessible, "As on the insurance card"), 1)

            validation.value = .invalid("Enter the patient's name")
            XCTAssertEqual(twb_test_accessible_has_description(accessible, "Enter the patient's name\nAs on the insurance card"), 1)
            // A hint changed meanwhile (another language) keeps the message first.
            entry.accessibleDescription = "Wie auf der Versichertenkarte"
            XCTAssertEqual(twb_test_accessible_has_description(accessible, "Enter the patient's name\nWie auf der Versichertenkarte"), 1)

            validation.value = .valid
            XCTAssertEqual(twb_test_accessible_has_description(accessible, "Wie auf der Versichertenkarte"), 1)
            entry.accessibleDescription = nil
            XCTAssertEqual(gtk_test_accessible_has_property(accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION), 0)
        }
    }

    func testShowValidation_derivedRule_replacesEarlierSource() throws {
        try MainActor.assumeIsolated {
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            defer { GtkTest.destroy(window) }
            let entry = try Entry.wrapping(gtkEntry)
            let name = Observable("")
            let first = Observable(FieldValidation.invalid("first"))
            entry.showValidation(first)
            entry.showValidation(name.map { $0.isEmpty ? .invalid("Enter your name") : .valid })
            XCTAssertEqual(first._observerCount, 0)
            XCTAssertEqual(gtk_widget_has_css_class(gtkEntry, "error"), 1)

            entry.bind(with: name)
            var position: gint = 0
            gtk_editable_insert_text(gtkEntry.opaque, "Ada", -1, &position)
            XCTAssertEqual(gtk_widget_has_css_class(gtkEntry, "error"), 0)
        }
    }
}
