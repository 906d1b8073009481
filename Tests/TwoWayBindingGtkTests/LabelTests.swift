import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

final class LabelTests: GtkTestCase {
    func testShow_formatsEachChange_andSkipsEqualText() throws {
        try MainActor.assumeIsolated {
            let gtkLabel = gtk_label_new(nil)!
            let window = GtkTest.window(gtkLabel)
            defer { GtkTest.destroy(window) }
            let label = try Label.wrapping(gtkLabel)
            let years = Observable(2.5)
            let (notifyHandler, labelNotifications) = GtkTest.count("notify::label", of: gtkLabel)
            defer { notifyHandler.cancel() }

            let binding = label.show(years) { "\($0) yrs" }
            XCTAssertEqual(label.text, "2.5 yrs")
            years.value = 3
            XCTAssertEqual(String(cString: gtk_label_get_text(gtkLabel.opaque)), "3.0 yrs")
            XCTAssertEqual(labelNotifications(), 2)

            let rounded = try Label.wrapping(gtkLabel).show(years) { "\(Int($0)) yrs" }
            years.value = 3.2
            XCTAssertEqual(label.text, "3 yrs")
            XCTAssertEqual(labelNotifications(), 3, "equal text is not set again")
            XCTAssertFalse(binding.isActive, "showing another value replaced the first binding")
            XCTAssertTrue(rounded.isActive)
        }
    }

    func testShow_derivedString_keepsItsSourceAlive() throws {
        try MainActor.assumeIsolated {
            let gtkLabel = gtk_label_new(nil)!
            let window = GtkTest.window(gtkLabel)
            defer { GtkTest.destroy(window) }
            let first = Observable("Ada"), last = Observable("Lovelace")
            try Label.wrapping(gtkLabel).show(Derived.combine(first, last) { "\($0) \($1)" })
            last.value = "King"
            XCTAssertEqual(try Label.wrapping(gtkLabel).text, "Ada King")
        }
    }
}
