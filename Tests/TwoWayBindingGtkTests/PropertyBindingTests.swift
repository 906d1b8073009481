import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// Any widget property, through a typed key, bound one way or both ways.
final class PropertyBindingTests: GtkTestCase {
    func testVisibleAndSensitive_followTheirObservables_untilTheTokenEnds() throws {
        try MainActor.assumeIsolated {
            let button = gtk_button_new_with_label("Save")!
            let window = GtkTest.window(button)
            defer { GtkTest.destroy(window) }
            let widget = try Widget.wrapping(button)
            let isShown = Observable(false), isValid = Observable(false)
            let visible = try widget.bind(.visible, to: isShown)
            let sensitive = try widget.bind(.sensitive, to: isValid)
            XCTAssertEqual(gtk_widget_get_visible(button), 0)
            XCTAssertEqual(gtk_widget_get_sensitive(button), 0)
            isShown.value = true
            isValid.value = true
            XCTAssertEqual(gtk_widget_get_visible(button), 1)
            XCTAssertEqual(gtk_widget_get_sensitive(button), 1)
            visible.cancel()
            isShown.value = false
            XCTAssertEqual(gtk_widget_get_visible(button), 1, "an ended binding shows no more")
            XCTAssertTrue(sensitive.isActive)
        }
    }

    func testTwoWay_aChangeOfThePropertyReachesTheModelOnce_withNoEcho() throws {
        try MainActor.assumeIsolated {
            let toggle = gtk_toggle_button_new_with_label("Bold")!
            let window = GtkTest.window(toggle)
            defer { GtkTest.destroy(window) }
            let isBold = Observable(true)
            let token = try Widget.wrapping(toggle).bind(.boolean("active"), with: isBold)
            defer { token.cancel() }
            XCTAssertEqual(gtk_toggle_button_get_active(toggle.cast()), 1, "the model's value first")
            let (notifyToken, notifications) = GtkTest.count("notify::active", of: toggle)
            defer { notifyToken.cancel() }
            let (modelToken, modelChanges) = isBold.countNotifications()
            defer { modelToken.cancel() }

            gtk_toggle_button_set_active(toggle.cast(), TWB_FALSE)  // as a click would
            XCTAssertFalse(isBold.value)
            XCTAssertEqual(modelChanges.value, 1)
            XCTAssertEqual(notifications(), 1, "the model's change is not written back")

            isBold.value = true
            XCTAssertEqual(gtk_toggle_button_get_active(toggle.cast()), 1)
            XCTAssertEqual(notifications(), 2)
            XCTAssertEqual(modelChanges.value, 2, "the widget's echo does not reach the model again")
        }
    }

    func testStringProperty_bothWays() throws {
        try MainActor.assumeIsolated {
            let label = gtk_label_new("")!
            let window = GtkTest.window(label)
            defer { GtkTest.destroy(window) }
            let hint = Observable("Your full name")
            let token = try Widget.wrapping(label).bind(.string("tooltip-text"), with: hint)
            defer { token.cancel() }
            XCTAssertEqual(String(cString: gtk_widget_get_tooltip_text(label)), "Your full name")
            gtk_widget_set_tooltip_text(label, "Changed by GTK")
            XCTAssertEqual(hint.value, "Changed by GTK")
        }
    }

    func testAWrongKey_isAClearError() throws {
        try MainActor.assumeIsolated {
            let label = gtk_label_new("")!
            let window = GtkTest.window(label)
            let widget = try Widget.wrapping(label)
            XCTAssertThrowsError(try widget.bind(.boolean("no-such-thing"), to: Observable(true))) { error in
                XCTAssertEqual(error as? PropertyError, .noSuchProperty(name: "no-such-thing", type: "GtkLabel"))
            }
            XCTAssertThrowsError(try widget.bind(.string("visible"), to: Observable("yes"))) { error in
                XCTAssertEqual(
                    error as? PropertyError, .wrongValueType(name: "visible", expected: "gchararray", actual: "gboolean")
                )
                XCTAssertEqual("\(error)", "property \"visible\" holds a gboolean, not a gchararray")
            }
            GtkTest.destroy(window)
            XCTAssertThrowsError(try widget.bind(.visible, to: Observable(true))) { error in
                XCTAssertEqual(error as? PropertyError, .widgetDestroyed(name: "visible"))
            }
        }
    }

    func testAPropertySetOnce_andRead_checkedAsABindingIs() throws {
        try MainActor.assumeIsolated {
            let label = gtk_label_new("")!
            let window = GtkTest.window(label)
            let widget = try Widget.wrapping(label)
            try widget.set(.string("label"), to: "Version 2")
            XCTAssertEqual(String(cString: gtk_label_get_label(OpaquePointer(label))), "Version 2")
            try widget.set(.integer("max-width-chars"), to: 12)
            XCTAssertEqual(try widget.value(of: .integer("max-width-chars")), 12)
            XCTAssertEqual(try widget.value(of: .string("label")), "Version 2")
            XCTAssertThrowsError(try widget.set(.boolean("label"), to: true)) { error in
                XCTAssertEqual(
                    error as? PropertyError, .wrongValueType(name: "label", expected: "gboolean", actual: "gchararray")
                )
            }
            XCTAssertEqual(try widget.value(of: .string("label")), "Version 2", "a refused value changes nothing")
            GtkTest.destroy(window)
            XCTAssertThrowsError(try widget.set(.string("label"), to: "gone")) { error in
                XCTAssertEqual(error as? PropertyError, .widgetDestroyed(name: "label"))
            }
        }
    }

    func testAModelOutlivingItsWidget_isLeftAlone() throws {
        try MainActor.assumeIsolated {
            let label = gtk_label_new("")!
            let window = GtkTest.window(label)
            let isShown = Observable(true)
            let token = try Widget.wrapping(label).bind(.visible, with: isShown)
            GtkTest.destroy(window)
            isShown.value = false
            isShown.value = true
            token.cancel()
            XCTAssertTrue(isShown.value)
        }
    }
}
