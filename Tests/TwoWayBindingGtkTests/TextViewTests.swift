import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

final class TextViewTests: GtkTestCase {
    func testUndoingTyping_isTheBuffersUnlessTurnedOff() throws {
        try MainActor.assumeIsolated {
            let gtkTextView = gtk_text_view_new()!
            let window = GtkTest.window(gtkTextView)
            defer { GtkTest.destroy(window) }
            let textView = try TextView.wrapping(gtkTextView)
            let buffer = gtk_text_view_get_buffer(gtkTextView.cast())!
            XCTAssertTrue(textView.undoesTyping)
            textView.undoesTyping = false
            XCTAssertFalse(textView.undoesTyping)
            XCTAssertEqual(gtk_text_buffer_get_enable_undo(buffer), 0, "the buffer's own undo is off")
        }
    }

    func testModelToWidget_writesOnlyChangedText() throws {
        try MainActor.assumeIsolated {
            let gtkTextView = gtk_text_view_new()!
            let window = GtkTest.window(gtkTextView)
            defer { GtkTest.destroy(window) }
            let textView = try TextView.wrapping(gtkTextView)
            let comments = Observable("Hello")
            let buffer = gtk_text_view_get_buffer(gtkTextView.cast())!
            let (changedHandler, bufferChanges) = GtkTest.count("changed", of: buffer)
            defer { changedHandler.cancel() }
            let (token, notifications) = comments.countNotifications()
            defer { token.cancel() }

            let binding = textView.bind(with: comments)
            XCTAssertEqual(textView.text, "Hello")
            XCTAssertEqual(bufferChanges(), 1)

            comments.value = "Goodbye"
            XCTAssertEqual(textView.text, "Goodbye")
            XCTAssertEqual(bufferChanges(), 3, "set_text deletes, then inserts")
            XCTAssertEqual(notifications.value, 1, "the buffer's changes during a write do not echo")

            textView.updateValue(with: "Goodbye")
            XCTAssertEqual(bufferChanges(), 3, "equal text is never written")
            XCTAssertEqual(binding._controlWriteCount, 2)
        }
    }

    func testTyping_notifiesOncePerUserAction() throws {
        try MainActor.assumeIsolated {
            let gtkTextView = gtk_text_view_new()!
            let window = GtkTest.window(gtkTextView)
            defer { GtkTest.destroy(window) }
            let comments = Observable("Hi")
            let binding = try TextView.wrapping(gtkTextView).bind(with: comments)
            let buffer = gtk_text_view_get_buffer(gtkTextView.cast())!
            let (token, notifications) = comments.countNotifications()
            defer { token.cancel() }

            gtk_text_buffer_insert_interactive_at_cursor(buffer, " there", -1, 1)
            XCTAssertEqual(comments.value, "Hi there")
            XCTAssertEqual(notifications.value, 1)

            // A paste over a selection: one user action, a deletion and an insertion.
            var start = GtkTextIter(), end = GtkTextIter()
            gtk_text_buffer_get_bounds(buffer, &start, &end)
            gtk_text_buffer_begin_user_action(buffer)
            gtk_text_buffer_delete_interactive(buffer, &start, &end, 1)
            gtk_text_buffer_insert_interactive_at_cursor(buffer, "Bye", -1, 1)
            gtk_text_buffer_end_user_action(buffer)
            XCTAssertEqual(comments.value, "Bye")
            XCTAssertEqual(notifications.value, 2, "one notification for the whole action")
            XCTAssertEqual(binding._controlWriteCount, 1, "typing is not written back")

            comments.value = "Later"
            XCTAssertEqual(try TextView.wrapping(gtkTextView).text, "Later")
        }
    }
}
