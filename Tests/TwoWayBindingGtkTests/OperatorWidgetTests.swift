import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// Seed 003's operators on real GTK widgets, and two widgets sharing one value.
final class OperatorWidgetTests: GtkTestCase {
    func testLabelArrow_showsADerivedSummary_andFollowsIt() throws {
        try MainActor.assumeIsolated {
            let gtkLabel = gtk_label_new(nil)!
            let window = GtkTest.window(gtkLabel)
            defer { GtkTest.destroy(window) }
            let name = Observable("Ada"), company = Observable("Engines")
            let summary = Derived.combine(name, company) { "\($0) at \($1)" }
            let label = try Label.wrapping(gtkLabel)

            let binding = label <- summary
            XCTAssertEqual(String(cString: gtk_label_get_text(gtkLabel.opaque)), "Ada at Engines")
            company.value = "Analytical"
            XCTAssertEqual(String(cString: gtk_label_get_text(gtkLabel.opaque)), "Ada at Analytical")
            binding.unbind()
            name.value = "Grace"
            XCTAssertEqual(label.text, "Ada at Analytical", "an unbound label shows no more")
        }
    }

    func testEntryDoubleArrow_bindsBothWaysThroughTheEntrysOwnSignals() throws {
        try MainActor.assumeIsolated {
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            defer { GtkTest.destroy(window) }
            let name = Observable("Ad")
            let entry = try Entry.wrapping(gtkEntry)

            let binding = entry <-> name
            XCTAssertEqual(entry.text, "Ad")
            var position: gint = 2
            gtk_editable_insert_text(gtkEntry.opaque, "a", -1, &position)
            XCTAssertEqual(name.value, "Ada")
            name.value = "Grace"
            XCTAssertEqual(String(cString: gtk_editable_get_text(gtkEntry.opaque)), "Grace")
            XCTAssertEqual(binding._controlWriteCount, 2, "the typed letter was not written back")
        }
    }

    /// An entry and a scale on one value stay in agreement whichever the
    /// user moves, with no write echoed back to the widget that changed.
    func testEntryAndScaleOnOneValue_agreeAfterUserEditsOfEither() throws {
        try MainActor.assumeIsolated {
            let gtkEntry = gtk_entry_new()!
            let gtkScale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 100, 1)!
            let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            gtk_box_append(box.cast(to: GtkBox.self), gtkEntry)
            gtk_box_append(box.cast(to: GtkBox.self), gtkScale)
            let window = GtkTest.window(box)
            defer { GtkTest.destroy(window) }
            let level = Observable(40.0)
            let entry = try Entry.wrapping(gtkEntry), scale = try Scale.wrapping(gtkScale)
            let typed = entry.bind(with: level, transform: .text(invalidMessage: "Not a number"))
            let slid = scale <-> level
            XCTAssertEqual(entry.text, "40.0")
            XCTAssertEqual(scale.value, 40)
            let (valueHandler, scaleChanges) = GtkTest.count("value-changed", of: gtkScale)
            defer { valueHandler.cancel() }
            let (textHandler, entryChanges) = GtkTest.count("notify::text", of: gtkEntry)
            defer { textHandler.cancel() }

            gtk_range_set_value(gtkScale.cast(), 75)  // as a drag would
            XCTAssertEqual(level.value, 75)
            XCTAssertEqual(entry.text, "75.0")
            XCTAssertEqual(scaleChanges(), 1, "the scale is not written back")
            XCTAssertEqual(entryChanges(), 1, "the entry is written once")

            gtk_editable_set_text(gtkEntry.opaque, "12")  // as typing over it would
            XCTAssertEqual(level.value, 12)
            XCTAssertEqual(scale.value, 12)
            XCTAssertEqual(entry.text, "12", "what was typed stays as typed")
            XCTAssertEqual(scaleChanges(), 2)

            gtk_editable_set_text(gtkEntry.opaque, "abc")
            XCTAssertEqual(level.value, 12, "text that is no number leaves the value alone")
            XCTAssertEqual(scale.value, 12)
            XCTAssertEqual(typed.validation.value, .invalid("Not a number"))
            XCTAssertTrue(slid.isActive)
        }
    }

    /// Seed 002's getter and setter, on a real scale: a field of a plain
    /// struct, clamped by the scale and read back into the struct.
    func testScaleBoundToAStructField_throughAGetterAndSetter() throws {
        try MainActor.assumeIsolated {
            struct Preferences { var volume = 140.0 }
            var preferences = Preferences()
            let gtkScale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 100, 1)!
            let window = GtkTest.window(gtkScale)
            defer { GtkTest.destroy(window) }
            let scale = try Scale.wrapping(gtkScale)
            scale <-> Binding(get: { preferences.volume }, set: { preferences.volume = $0 })
            XCTAssertEqual(scale.value, 100)
            XCTAssertEqual(preferences.volume, 100, "the clamped value was read back through the setter")
            gtk_range_set_value(gtkScale.cast(), 30)  // as a drag would
            XCTAssertEqual(preferences.volume, 30)
        }
    }
}
