import CTwoWayBindingAdw
import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

final class EntryTests: GtkTestCase {
    func testModelToWidget_setsTextOnceAndNeverWritesEqualText() throws {
        try MainActor.assumeIsolated {
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            defer { GtkTest.destroy(window) }
            let entry = try Entry.wrapping(gtkEntry)
            let name = Observable("Ada")
            let (notifyHandler, textNotifications) = GtkTest.count("notify::text", of: gtkEntry)
            defer { notifyHandler.cancel() }

            let binding = entry.bind(with: name)
            XCTAssertEqual(entry.text, "Ada")
            XCTAssertEqual(textNotifications(), 1)

            name.value = "Grace"
            XCTAssertEqual(entry.text, "Grace")
            XCTAssertEqual(textNotifications(), 2)
            XCTAssertEqual(binding._controlWriteCount, 2)

            entry.updateValue(with: "Grace")
            XCTAssertEqual(textNotifications(), 2, "equal text is not written")
        }
    }

    func testTyping_notifiesModelOncePerChange() throws {
        try MainActor.assumeIsolated {
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            defer { GtkTest.destroy(window) }
            let entry = try Entry.wrapping(gtkEntry)
            let name = Observable("Ad")
            let binding = entry.bind(with: name)
            let (token, notifications) = name.countNotifications()
            defer { token.cancel() }

            var position: gint = 2
            gtk_editable_insert_text(gtkEntry.opaque, "a", -1, &position)
            XCTAssertEqual(name.value, "Ada")
            XCTAssertEqual(notifications.value, 1)

            gtk_editable_delete_text(gtkEntry.opaque, 0, 1)
            XCTAssertEqual(name.value, "da")
            XCTAssertEqual(notifications.value, 2)
            XCTAssertEqual(binding._controlWriteCount, 1, "user input is not echoed back to the entry")
        }
    }

    func testUpdateValue_keepsCursorInPlaceOrAtEnd() throws {
        try MainActor.assumeIsolated {
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry, present: true)
            defer { GtkTest.destroy(window) }
            let entry = try Entry.wrapping(gtkEntry)
            let editable = gtkEntry.opaque
            // The cursor is kept for someone typing: the entry has focus.
            gtk_widget_grab_focus(gtkEntry)
            GtkTest.pump()

            entry.text = "hello"
            gtk_editable_set_position(editable, -1)
            entry.text = "hello world"
            XCTAssertEqual(gtk_editable_get_position(editable), 11, "a cursor at the end stays at the end")

            gtk_editable_set_position(editable, 2)
            entry.text = "héllo"
            XCTAssertEqual(gtk_editable_get_position(editable), 2)
        }
    }

    func testCommitPolicy_onCommit_waitsForActivateOrFocusLeave() throws {
        try MainActor.assumeIsolated {
            let gtkEntry = gtk_entry_new()!
            let other = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry, other, present: true)
            defer { GtkTest.destroy(window) }
            let entry = try Entry.wrapping(gtkEntry)
            let name = Observable("")
            entry.bind(with: name, options: BindingOptions(commitPolicy: .onCommit))

            var position: gint = 0
            gtk_editable_insert_text(gtkEntry.opaque, "Ada", -1, &position)
            XCTAssertEqual(name.value, "", "typing alone does not commit")

            // Enter reaches the entry as its text's `activate`.
            twb_signal_emit(UnsafeMutableRawPointer(gtk_editable_get_delegate(gtkEntry.opaque)), "activate")
            XCTAssertEqual(name.value, "Ada", "activate commits")

            gtk_editable_insert_text(gtkEntry.opaque, "!", -1, &position)
            XCTAssertEqual(name.value, "Ada")
            GtkTest.focus(gtkEntry, thenMoveTo: other)
            XCTAssertEqual(name.value, "Ada!", "focus leaving commits")
        }
    }

    func testParseFailure_keepsModelAndReportsValidation() throws {
        try MainActor.assumeIsolated {
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            defer { GtkTest.destroy(window) }
            let entry = try Entry.wrapping(gtkEntry)
            let age = Observable(42)
            let binding = entry.bind(with: age, transform: .text(invalidMessage: "Enter a whole number"))
            XCTAssertEqual(entry.text, "42")

            gtk_editable_set_text(gtkEntry.opaque, "4x")
            XCTAssertEqual(age.value, 42)
            XCTAssertEqual(binding.validation.value, .invalid("Enter a whole number"))

            gtk_editable_set_text(gtkEntry.opaque, "43")
            XCTAssertEqual(age.value, 43)
            XCTAssertEqual(binding.validation.value, .valid)
        }
    }

    func testAnyEditable_aLibadwaitaEntryRowOrAPasswordEntry_bindsBothWaysAndCommitsOnEnter() throws {
        try MainActor.assumeIsolated {
            adw_init()
            let row = adw_entry_row_new()!
            let password = gtk_password_entry_new()!
            let spin = gtk_spin_button_new_with_range(0, 1, 1)!
            let list = gtk_list_box_new()!
            gtk_list_box_append(OpaquePointer(list), row)
            let window = GtkTest.window(list, password, spin, present: true)
            defer { GtkTest.destroy(window) }
            XCTAssertTrue(try Widget.wrapping(row) is Entry, "an AdwEntryRow is wrapped as an Entry")
            XCTAssertTrue(try Widget.wrapping(spin) is SpinButton, "a spin button, an editable too, stays a SpinButton")

            let host = Observable("db.example.org")
            try Entry.wrapping(row).bind(with: host, options: BindingOptions(commitPolicy: .onCommit))
            XCTAssertEqual(String(cString: gtk_editable_get_text(row.opaque)), "db.example.org")
            var position: gint = -1
            gtk_editable_insert_text(row.opaque, ":5433", -1, &position)
            XCTAssertEqual(host.value, "db.example.org", "typing alone does not commit")
            // The row has no `activate` of its own: Enter is its text's.
            twb_signal_emit(UnsafeMutableRawPointer(gtk_editable_get_delegate(row.opaque)), "activate")
            XCTAssertEqual(host.value, "db.example.org:5433")

            let secret = Observable("")
            try Entry.wrapping(password).bind(with: secret)
            gtk_editable_set_text(password.opaque, "s3cret")
            XCTAssertEqual(secret.value, "s3cret")
            secret.value = ""
            XCTAssertEqual(String(cString: gtk_editable_get_text(password.opaque)), "")
        }
    }
}
