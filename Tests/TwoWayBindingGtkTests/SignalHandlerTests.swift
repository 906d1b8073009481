import CAdw
import CGtk
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

final class SignalHandlerTests: GtkTestCase {
    func testBlockUnblockDisconnect_andTheClosureIsReleased() {
        MainActor.assumeIsolated {
            let boxesBefore = SignalHandler.liveClosureBoxCount
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            defer { GtkTest.destroy(window) }
            let (handler, count) = GtkTest.count("notify::text", of: gtkEntry)
            XCTAssertEqual(SignalHandler.liveClosureBoxCount, boxesBefore + 1)
            XCTAssertTrue(handler.isConnected)

            gtk_editable_set_text(gtkEntry.opaque, "a")
            handler.block()
            gtk_editable_set_text(gtkEntry.opaque, "b")
            handler.unblock()
            gtk_editable_set_text(gtkEntry.opaque, "c")
            XCTAssertEqual(count(), 2)

            handler.disconnect()
            handler.disconnect()
            XCTAssertFalse(handler.isConnected)
            gtk_editable_set_text(gtkEntry.opaque, "d")
            XCTAssertEqual(count(), 2)
            XCTAssertEqual(SignalHandler.liveClosureBoxCount, boxesBefore, "disconnecting released the closure")
        }
    }

    func testHandleOutlivingItsObject_isInert() {
        MainActor.assumeIsolated {
            let boxesBefore = SignalHandler.liveClosureBoxCount
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            let (handler, _) = GtkTest.count("activate", of: gtkEntry)
            GtkTest.destroy(window)

            XCTAssertFalse(handler.isConnected)
            handler.block()
            handler.disconnect()
            XCTAssertEqual(SignalHandler.liveClosureBoxCount, boxesBefore, "dispose released the closure")
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
            SignalHandler.connect(UnsafeMutableRawPointer(dialog), signal: "response") { (response: String) in heard.append(response) }
            adw_message_dialog_response(messageDialog, "carry")
            adw_message_dialog_response(messageDialog, "keep")
            XCTAssertEqual(heard, ["carry", "keep"])
            gtk_window_destroy(dialog.cast(to: GtkWindow.self))
        }
    }
}
