public import CTwoWayBindingGtkShims
import Synchronization
public import TwoWayBinding
import TwoWayBindingGtk
public import XCTest

/// A test case that needs GTK: it fails, never skips, without a display, and
/// fails when GLib logs a warning or a critical during the test. Shared by
/// every test target that drives real widgets: GLib takes one log writer per
/// process, so there can be only one harness.
///
/// NB: XCTest on Linux cannot run synchronous `@MainActor` test methods (see
/// the project notes); test bodies use `MainActor.assumeIsolated`, which holds
/// because XCTest runs tests on the main thread.
open class GtkTestCase: XCTestCase {
    private var warningsBefore = 0

    /// Thrown after the failure is recorded, to keep the test body (which
    /// would crash without GTK) from running.
    public struct GtkUnavailable: Error, CustomStringConvertible {
        public var description: String { "gtk_init_check() failed: run the GTK tests under xvfb-run" }
    }

    override open func setUpWithError() throws {
        try super.setUpWithError()
        let started = MainActor.assumeIsolated {
            let started = GtkTest.start()
            if started { GtkTest.pump() }
            return started
        }
        guard started else {
            XCTFail("\(GtkUnavailable())")
            throw GtkUnavailable()
        }
        warningsBefore = GtkTest.warningCount
    }

    override open func tearDown() {
        guard MainActor.assumeIsolated({ GtkTest.isRunning }) else {
            return super.tearDown()
        }
        MainActor.assumeIsolated { GtkTest.pump() }
        XCTAssertEqual(GtkTest.warningCount, warningsBefore, "GLib logged warnings or criticals during the test")
        super.tearDown()
    }
}

private let loggedWarnings = Atomic<Int>(0)

/// GLib's log writer, counting warnings and criticals. Nonisolated: GLib
/// logs from its worker threads too (GIO's, the file chooser's).
private func countingLogWriter(
    _ level: GLogLevelFlags, _ fields: UnsafePointer<GLogField>?, _ count: gsize, _ data: gpointer?
) -> GLogWriterOutput {
    let serious = G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_CRITICAL.rawValue | G_LOG_LEVEL_ERROR.rawValue
    if level.rawValue & serious != 0 { loggedWarnings.add(1, ordering: .relaxed) }
    return g_log_writer_default(level, fields, count, data)
}

@MainActor
public enum GtkTest {
    private static var isStarted: Bool?

    /// Initializes GTK once per process; false when there is no display.
    public static func start() -> Bool {
        if let isStarted { return isStarted }
        // The test accessibility backend records states without a bus, so
        // that tests can read them back; a caller may choose another (the
        // leak check runs with none).
        setenv("GTK_A11Y", "test", 0)
        g_log_set_writer_func(countingLogWriter, nil, nil)
        let started = gtk_init_check() != 0
        isStarted = started
        return started
    }

    public static var isRunning: Bool { isStarted == true }

    public nonisolated static var warningCount: Int { loggedWarnings.load(ordering: .relaxed) }

    /// Runs every pending main-context event.
    public static func pump() {
        while g_main_context_iteration(nil, 0) != 0 {}
    }

    /// A window (not shown unless asked) holding `children` in a vertical box.
    public static func window(_ children: UnsafeMutablePointer<GtkWidget>..., present: Bool = false) -> UnsafeMutablePointer<GtkWidget> {
        let window = window(children)
        if present { activate(window) }
        return window
    }

    /// Shows `window` and gives it keyboard focus; focus controllers only see
    /// focus move inside an active window.
    public static func activate(_ window: UnsafeMutablePointer<GtkWidget>) {
        XCTAssertTrue(present(window, timeout: 2), "the window did not become active")
    }

    /// Iterates the main context until `condition` holds or `timeout` seconds pass.
    @discardableResult
    public static func pump(until condition: () -> Bool, timeout: Double = 2) -> Bool {
        let deadline = g_get_monotonic_time() + gint64(timeout * 1_000_000)
        while !condition() {
            if g_get_monotonic_time() > deadline { return false }
            if g_main_context_iteration(nil, 0) == 0 { g_usleep(1000) }
        }
        return true
    }

    /// A window (not shown) holding `children` in a vertical box.
    public static func window(_ children: [UnsafeMutablePointer<GtkWidget>]) -> UnsafeMutablePointer<GtkWidget> {
        let window = gtk_window_new()!
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        gtk_window_set_child(window.cast(), box)
        for child in children { gtk_box_append(box.cast(), child) }
        return window
    }

    /// Shows `window` and waits until it is active; whether it became active.
    public static func present(_ window: UnsafeMutablePointer<GtkWidget>, timeout: Double = 5) -> Bool {
        gtk_window_present(window.cast())
        pump(until: { gtk_widget_get_mapped(window) != 0 }, timeout: timeout)
        // NB: with no window manager under Xvfb, GDK's focus request only
        // succeeds once the window is mapped.
        gtk_window_present(window.cast())
        return pump(until: { gtk_window_is_active(window.cast()) != 0 }, timeout: timeout)
    }

    public static func destroy(_ window: UnsafeMutablePointer<GtkWidget>) {
        gtk_window_destroy(window.cast())
        pump()
    }

    /// Counts emissions of `signal` on `object` until the handler is disconnected.
    public static func count(
        _ signal: String, of object: UnsafeMutableRawPointer, file: StaticString = #filePath, line: UInt = #line
    ) -> (ObservationToken, () -> Int) {
        let counter = Counter()
        do {
            let handler = try Signal.connect(object, signal: signal) { counter.value += 1 }
            return (handler, { counter.value })
        } catch {
            XCTFail("cannot count \"\(signal)\": \(error)", file: file, line: line)
            return (ObservationToken {}, { counter.value })
        }
    }

    /// Moves keyboard focus to `widget`, then away to `other`.
    public static func focus(_ widget: UnsafeMutablePointer<GtkWidget>, thenMoveTo other: UnsafeMutablePointer<GtkWidget>) {
        gtk_widget_grab_focus(widget)
        pump()
        gtk_widget_grab_focus(other)
        pump()
    }
}

/// A mutable count shared with a closure.
@MainActor
public final class Counter {
    public var value = 0

    public init() {}
}

extension Observable {
    /// Counts this observable's notifications for as long as the token lives.
    public func countNotifications() -> (ObservationToken, Counter) {
        let counter = Counter()
        let token = observe { _ in counter.value += 1 }
        return (token, counter)
    }
}
