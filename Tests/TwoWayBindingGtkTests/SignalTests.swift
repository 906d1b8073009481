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

    func testReleasingTheToken_disconnects() {
        MainActor.assumeIsolated {
            let boxesBefore = Signal._liveClosureBoxCount
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            defer { GtkTest.destroy(window) }
            var heard = 0
            var token: ObservationToken? = Signal.connect(gtkEntry, signal: "notify::text") { heard += 1 }
            gtk_editable_set_text(gtkEntry.opaque, "1")
            XCTAssertEqual(heard, 1)
            XCTAssertNotNil(token)
            token = nil
            gtk_editable_set_text(gtkEntry.opaque, "2")
            XCTAssertEqual(heard, 1, "a released token's handler is not called")
            XCTAssertEqual(Signal._liveClosureBoxCount, boxesBefore)
        }
    }

    func testKeptWithItsObject_lastsAsLongAsTheObject() {
        MainActor.assumeIsolated {
            let boxesBefore = Signal._liveClosureBoxCount
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            var heard = 0
            Signal.connect(gtkEntry, signal: "notify::text") { heard += 1 }.keep(with: gtkEntry)
            Signal.connect(gtkEntry, signal: "notify::text") { heard += 10 }.keep(with: gtkEntry)
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

    func testStringArgument_reachesTheHandler() {
        MainActor.assumeIsolated {
            adw_init()
            let dialog = adw_message_dialog_new(nil, "Heading", "Body")!
            let messageDialog = dialog.cast(to: AdwMessageDialog.self)
            adw_message_dialog_add_response(messageDialog, "keep", "Keep")
            adw_message_dialog_add_response(messageDialog, "carry", "Carry Over")
            var heard: [String] = []
            let token = Signal.connect(UnsafeMutableRawPointer(dialog), signal: "response") { (response: String) in
                heard.append(response)
            }
            adw_message_dialog_response(messageDialog, "carry")
            adw_message_dialog_response(messageDialog, "keep")
            XCTAssertEqual(heard, ["carry", "keep"])
            token.cancel()
            gtk_window_destroy(dialog.cast(to: GtkWindow.self))
        }
    }
}
