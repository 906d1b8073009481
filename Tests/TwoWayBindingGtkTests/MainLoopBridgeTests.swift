import CTwoWayBindingGtkShims
import Dispatch
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// Swift concurrency under a running GLib main loop, as in the app.
final class MainLoopBridgeTests: GtkTestCase {
    func testInstall_watchesTheMainQueueAndIsIdempotent() {
        MainActor.assumeIsolated {
            MainLoopBridge.install()
            MainLoopBridge.install()
            XCTAssertEqual(MainLoopBridge.mode, .fileDescriptor)
        }
    }

    func testBackgroundPost_reachesWidgetUnderGMainLoopRun() throws {
        try MainActor.assumeIsolated {
            MainLoopBridge.install()
            let gtkLabel = gtk_label_new(nil)!
            let window = GtkTest.window(gtkLabel)
            defer { GtkTest.destroy(window) }
            let status = Observable("waiting")
            try Label.wrapping(gtkLabel).show(status)

            DispatchQueue.global().async {
                status.post("posted from a background thread")
            }
            let done = GtkMainLoop.run(timeout: 5) { (try? Label.wrapping(gtkLabel))?.text != "waiting" }
            XCTAssertTrue(done, "the post never reached the main actor under g_main_loop_run")
            XCTAssertEqual(String(cString: gtk_label_get_text(gtkLabel.opaque)), "posted from a background thread")
        }
    }

    func testMainActorTaskWithSleep_resumesUnderGMainLoopRun() throws {
        try MainActor.assumeIsolated {
            MainLoopBridge.install()
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            defer { GtkTest.destroy(window) }
            let name = Observable("")
            try Entry.wrapping(gtkEntry).bind(with: name)

            let steps = Counter()
            Task { @MainActor in
                steps.value += 1
                try await Task.sleep(for: .milliseconds(30))
                name.value = "loaded after a sleep"
                await Task.yield()
                steps.value += 1
            }
            let done = GtkMainLoop.run(timeout: 5) { steps.value == 2 }
            XCTAssertTrue(done, "the task never resumed under g_main_loop_run")
            XCTAssertEqual(String(cString: gtk_editable_get_text(gtkEntry.opaque)), "loaded after a sleep")
        }
    }
}
