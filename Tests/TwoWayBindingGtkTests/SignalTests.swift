import CTwoWayBindingAdw
import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// A signal connection is an `ObservationToken` with its one rule: the
/// handler is disconnected when the token is cancelled or released.
final class SignalTests: GtkTestCase {
    func testCancel_disconnects_andReleasesTheClosure() {
        MainActor.assumeIsolated {
            let boxesBefore = Signal._liveClosureBoxCount
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            defer { GtkTest.destroy(window) }
            let (token, count) = GtkTest.count("notify::text", of: gtkEntry)
            XCTAssertEqual(Signal._liveClosureBoxCount, boxesBefore + 1)
            XCTAssertTrue(token.isActive)

            gtk_editable_set_text(gtkEntry.opaque, "a")
            XCTAssertEqual(count(), 1)
            token.cancel()
            token.cancel()
            XCTAssertFalse(token.isActive)
            gtk_editable_set_text(gtkEntry.opaque, "b")
            XCTAssertEqual(count(), 1)
            XCTAssertEqual(Signal._liveClosureBoxCount, boxesBefore, "disconnecting released the closure")
        }
    }

    func testReleasingTheToken_disconnects() throws {
        try MainActor.assumeIsolated {
            let boxesBefore = Signal._liveClosureBoxCount
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            defer { GtkTest.destroy(window) }
            var heard = 0
            var token: ObservationToken? = try Signal.connect(gtkEntry, signal: "notify::text") { heard += 1 }
            gtk_editable_set_text(gtkEntry.opaque, "1")
            XCTAssertEqual(heard, 1)
            XCTAssertNotNil(token)
            token = nil
            gtk_editable_set_text(gtkEntry.opaque, "2")
            XCTAssertEqual(heard, 1, "a released token's handler is not called")
            XCTAssertEqual(Signal._liveClosureBoxCount, boxesBefore)
        }
    }

    func testKeptWithItsObject_lastsAsLongAsTheObject() throws {
        try MainActor.assumeIsolated {
            let boxesBefore = Signal._liveClosureBoxCount
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            var heard = 0
            try Signal.connect(gtkEntry, signal: "notify::text") { heard += 1 }.keep(with: gtkEntry)
            try Signal.connect(gtkEntry, signal: "notify::text") { heard += 10 }.keep(with: gtkEntry)
            gtk_editable_set_text(gtkEntry.opaque, "3")
            XCTAssertEqual(heard, 11, "both kept handlers are connected with no other owner")
            GtkTest.destroy(window)
            XCTAssertEqual(Signal._liveClosureBoxCount, boxesBefore, "the object's end released both")
        }
    }

    func testTokenOutlivingItsObject_isInert() {
        MainActor.assumeIsolated {
            let boxesBefore = Signal._liveClosureBoxCount
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            let (token, _) = GtkTest.count("activate", of: gtkEntry)
            GtkTest.destroy(window)

            token.cancel()
            XCTAssertEqual(Signal._liveClosureBoxCount, boxesBefore, "dispose released the closure")
        }
    }

    func testStringArgument_reachesTheHandler() throws {
        try MainActor.assumeIsolated {
            adw_init()
            let dialog = adw_message_dialog_new(nil, "Heading", "Body")!
            let messageDialog = dialog.cast(to: AdwMessageDialog.self)
            adw_message_dialog_add_response(messageDialog, "keep", "Keep")
            adw_message_dialog_add_response(messageDialog, "carry", "Carry Over")
            var heard: [String] = []
            let token = try Signal.connect(UnsafeMutableRawPointer(dialog), signal: "response") { (response: String) in
                heard.append(response)
            }
            adw_message_dialog_response(messageDialog, "carry")
            adw_message_dialog_response(messageDialog, "keep")
            XCTAssertEqual(heard, ["carry", "keep"])
            token.cancel()
            gtk_window_destroy(dialog.cast(to: GtkWindow.self))
        }
    }

    func testAWrongName_throwsNamingTheSignalAndType_andConnectsNothing() throws {
        try MainActor.assumeIsolated {
            let boxesBefore = Signal._liveClosureBoxCount
            let button = gtk_button_new()!
            g_object_ref_sink(button)
            defer { g_object_unref(button) }
            XCTAssertThrowsError(try Signal.connect(button, signal: "clikced") {}) { error in
                XCTAssertEqual(error as? SignalError, .noSuchSignal(signal: "clikced", type: "GtkButton"))
                XCTAssertEqual("\(error)", "a GtkButton has no signal \"clikced\"")
            }
            XCTAssertThrowsError(try Signal.connect(button, signal: "notify::no-such-property") {}) { error in
                XCTAssertEqual(error as? SignalError, .noSuchSignal(signal: "notify::no-such-property", type: "GtkButton"))
            }
            XCTAssertEqual(Signal._liveClosureBoxCount, boxesBefore, "nothing was connected")
        }
    }

    func testAHandlerOfAnotherShape_throws_andConnectsNothing() throws {
        try MainActor.assumeIsolated {
            let boxesBefore = Signal._liveClosureBoxCount
            let window = gtk_window_new()!
            defer { gtk_window_destroy(window.cast(to: GtkWindow.self)) }
            // close-request answers whether it was handled: a handler that
            // returns nothing would leave that answer to chance.
            XCTAssertThrowsError(try Signal.connect(window, signal: "close-request") {}) { error in
                XCTAssertEqual(error as? SignalError, .wrongShape(
                    signal: "close-request", type: "GtkWindow",
                    expected: "any arguments, returning nothing", actual: "no argument, returning a gboolean"))
            }
            XCTAssertThrowsError(try Signal.connect(window, signal: "destroy") { (_: Int32) in }) { error in
                XCTAssertEqual("\(error)", "\"destroy\" of a GtkWindow has no argument, returning nothing; "
                    + "this handler fits signals with one integer, returning nothing")
            }
            XCTAssertThrowsError(try Signal.connect(window, signal: "destroy") { (_: String) in })
            XCTAssertEqual(Signal._liveClosureBoxCount, boxesBefore, "nothing was connected")

            // The shapes that fit: a signal with arguments, to a handler that ignores them.
            let token = try Signal.connect(window, signal: "notify::title") {}
            XCTAssertTrue(token.isActive)
        }
    }
}
