import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// The controls' options a form sets in code: each read back from GTK, and
/// harmless on a destroyed widget.
final class ControlOptionsTests: GtkTestCase {
    func testATextViewInAScrolledWindow() throws {
        try MainActor.assumeIsolated {
            let text = TextView()
            text.wrapsWords = true
            text.acceptsTab = false
            let scrolled = ScrolledWindow(child: text, hasFrame: true, minimumHeight: 80)
            let window = GtkTest.window(scrolled.pointer!)
            defer { GtkTest.destroy(window) }
            XCTAssertEqual(gtk_text_view_get_wrap_mode(text.pointer!.cast()), GTK_WRAP_WORD)
            XCTAssertTrue(text.wrapsWords)
            XCTAssertFalse(text.acceptsTab)
            XCTAssertEqual(try scrolled.value(of: .boolean("has-frame")), true)
            XCTAssertEqual(try scrolled.value(of: .integer("min-content-height")), 80)
            XCTAssertEqual(gtk_widget_get_parent(text.pointer!), scrolled.pointer, "the text view scrolls inside it")
            XCTAssertTrue(try Widget.wrapping(scrolled.pointer!) === scrolled)
        }
    }

    func testAnEntrysPlaceholderPurposeAndEnter() throws {
        try MainActor.assumeIsolated {
            let entry = Entry()
            let text = try Entry.wrapping(gtk_text_new()!)
            let window = GtkTest.window(entry.pointer!, text.pointer!)
            defer { GtkTest.destroy(window) }
            entry.placeholder = "YYYY-MM-DD"
            entry.inputPurpose = .digits
            XCTAssertTrue(entry.undoesTyping, "GTK's own undo, unless told otherwise")
            entry.undoesTyping = false
            XCTAssertFalse(entry.undoesTyping)
            XCTAssertEqual(entry.placeholder, "YYYY-MM-DD")
            XCTAssertEqual(entry.inputPurpose, .digits)
            text.placeholder = "HH:MM"
            XCTAssertEqual(text.placeholder, "HH:MM", "a GtkText has a placeholder too")
            XCTAssertEqual(text.inputPurpose, .freeForm, "but no purpose of a GtkEntry's")
            var entered = 0
            let token = entry.onActivate { entered += 1 }
            // Enter in an entry emits its `activate`.
            twb_signal_emit(UnsafeMutableRawPointer(entry.pointer!), "activate")
            XCTAssertEqual(entered, 1)
            token.cancel()
            twb_signal_emit(UnsafeMutableRawPointer(entry.pointer!), "activate")
            XCTAssertEqual(entered, 1, "an ended token hears nothing")
        }
    }

    func testAScaleAndASpinButtonsOptions() throws {
        MainActor.assumeIsolated {
            let scale = Scale(range: 0...10, step: 1)
            let spin = SpinButton(range: 0...59, step: 1)
            let label = Label("–")
            let window = GtkTest.window(scale.pointer!, spin.pointer!, label.pointer!)
            scale.showsValue = false
            XCTAssertFalse(scale.showsValue)
            spin.acceptsOnlyDigits = false
            spin.wraps = true
            spin.isVertical = true
            XCTAssertFalse(spin.acceptsOnlyDigits)
            XCTAssertTrue(spin.wraps)
            XCTAssertTrue(spin.isVertical)
            label.setMinimumSize(width: 48)
            var width: gint = 0, height: gint = 0
            gtk_widget_get_size_request(label.pointer!, &width, &height)
            XCTAssertEqual([width, height], [48, -1])
            GtkTest.destroy(window)
            spin.wraps = false
            XCTAssertFalse(spin.wraps, "a destroyed spin button reads as the default")
        }
    }

    func testABoxRemovesOnlyItsOwnChildren() throws {
        MainActor.assumeIsolated {
            let box = Box(vertical: true)
            let other = Box(vertical: true)
            let label = Label("in the box")
            let stranger = Label("elsewhere")
            box.append(label)
            other.append(stranger)
            let window = GtkTest.window(box.pointer!, other.pointer!)
            defer { GtkTest.destroy(window) }
            box.remove(stranger)
            XCTAssertEqual(gtk_widget_get_parent(stranger.pointer!), other.pointer, "not the box's: left where it is")
            box.remove(label)
            XCTAssertNil(gtk_widget_get_first_child(box.pointer!))
        }
    }
}
