import CGtk
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

    func testBackgroundPost_reachesWidgetUnderGMainLoopRun() {
        MainActor.assumeIsolated {
            MainLoopBridge.install()
            let gtkLabel = gtk_label_new(nil)!
            let window = GtkTest.window(gtkLabel)
            defer { GtkTest.destroy(window) }
            let status = Observable("waiting")
            Label.wrapping(gtkLabel).show(status)

            DispatchQueue.global().async {
                status.post("posted from a background thread")
            }
            let done = MainLoop.run(timeout: 5) { Label.wrapping(gtkLabel).text != "waiting" }
            XCTAssertTrue(done, "the post never reached the main actor under g_main_loop_run")
            XCTAssertEqual(String(cString: gtk_label_get_text(gtkLabel.opaque)), "posted from a background thread")
        }
    }

    func testMainActorTaskWithSleep_resumesUnderGMainLoopRun() {
        MainActor.assumeIsolated {
            MainLoopBridge.install()
            let gtkEntry = gtk_entry_new()!
            let window = GtkTest.window(gtkEntry)
            defer { GtkTest.destroy(window) }
            let name = Observable("")
            Entry.wrapping(gtkEntry).bind(with: name)

            let steps = Counter()
            Task { @MainActor in
                steps.value += 1
                try await Task.sleep(for: .milliseconds(30))
                name.value = "loaded after a sleep"
                await Task.yield()
                steps.value += 1
            }
            let done = MainLoop.run(timeout: 5) { steps.value == 2 }
            XCTAssertTrue(done, "the task never resumed under g_main_loop_run")
            XCTAssertEqual(String(cString: gtk_editable_get_text(gtkEntry.opaque)), "loaded after a sleep")
        }
    }
}

/// Runs a real GLib main loop until a condition holds or a timeout passes.
@MainActor
private final class MainLoop {
    private let loop = g_main_loop_new(nil, 0)!
    private let condition: () -> Bool
    private let deadline: gint64
    private(set) var conditionHeld = false

    private init(timeout: Double, condition: @escaping () -> Bool) {
        self.condition = condition
        deadline = g_get_monotonic_time() + gint64(timeout * 1_000_000)
    }

    isolated deinit {
        g_main_loop_unref(loop)
    }

    /// Whether `condition` came true before `timeout` seconds passed.
    static func run(timeout: Double, until condition: @escaping () -> Bool) -> Bool {
        let runner = MainLoop(timeout: timeout, condition: condition)
        // A check every 5 ms; it drains nothing, so only the bridge can run tasks.
        let check: GSourceFunc = { data in
            MainActor.assumeIsolated {
                let runner = Unmanaged<MainLoop>.fromOpaque(data!).takeUnretainedValue()
                runner.conditionHeld = runner.condition()
                if runner.conditionHeld || g_get_monotonic_time() > runner.deadline {
                    g_main_loop_quit(runner.loop)
                }
            }
            return SF_TRUE
        }
        let source = g_timeout_add(5, check, Unmanaged.passUnretained(runner).toOpaque())
        g_main_loop_run(runner.loop)
        g_source_remove(source)
        return runner.conditionHeld
    }
}
