import CTwoWayBindingGtkShims
import Dispatch
import Foundation
import Synchronization
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// Observables set from many threads at once through `post(_:)`, delivered by
/// the GLib main loop through `MainLoopBridge`, as in the application.
final class ConcurrentPostTests: GtkTestCase {
    func testEightThreadsPostingConcurrently_widgetShowsTheLastDeliveredValue() throws {
        try MainActor.assumeIsolated {
            MainLoopBridge.install()
            XCTAssertEqual(MainLoopBridge.mode, .fileDescriptor, "the bridge watches libdispatch's main queue")

            let threads = 8, postsPerThread = 500
            let gtkEntry = gtk_entry_new()!
            let gtkSpin = gtk_spin_button_new_with_range(0, Double(threads * postsPerThread), 1)!
            let gtkLabel = gtk_label_new(nil)!
            let window = GtkTest.window([gtkEntry, gtkSpin, gtkLabel])
            defer { GtkTest.destroy(window) }
            XCTAssertTrue(GtkTest.present(window))

            let status = Observable("waiting")
            let counter = Observable(-1.0)
            try Entry.wrapping(gtkEntry).bind(with: status)
            try SpinButton.wrapping(gtkSpin).bind(with: counter)
            try Label.wrapping(gtkLabel).show(status)
            XCTAssertEqual(counter.value, 0, "the spin button clamped the initial -1")

            // Every delivery, in order, as the main actor saw it.
            let delivered = Recorder()
            let statusToken = status.observe { delivered.statuses.append($0) }
            let counterToken = counter.observe { delivered.counts.append($0) }
            defer { statusToken.cancel(); counterToken.cancel() }

            let ready = Atomic<Int>(0), finished = Atomic<Int>(0)
            for thread in 0..<threads {
                Thread.detachNewThread {
                    // Start together, so that the posts really interleave.
                    ready.add(1, ordering: .sequentiallyConsistent)
                    while ready.load(ordering: .sequentiallyConsistent) < threads {}
                    for index in 0..<postsPerThread {
                        status.post("thread \(thread) post \(index)")
                        counter.post(Double(thread * postsPerThread + index + 1))
                    }
                    finished.add(1, ordering: .sequentiallyConsistent)
                }
            }

            // Only the GLib loop runs: nothing else drains the main queue.
            let total = threads * postsPerThread
            let done = GtkMainLoop.run(timeout: 30) {
                finished.load(ordering: .sequentiallyConsistent) == threads
                    && delivered.statuses.count == total && delivered.counts.count == total
            }
            XCTAssertTrue(done, "delivered \(delivered.statuses.count) + \(delivered.counts.count) of \(total) + \(total) posts")
            GtkTest.pump()

            // Each post notified once (all values differ), in each thread's order.
            XCTAssertEqual(delivered.statuses.count, total)
            XCTAssertEqual(delivered.counts.count, total)
            XCTAssertEqual(Set(delivered.statuses).count, total, "a post was lost or delivered twice")
            for thread in 0..<threads {
                let indices = delivered.statuses.compactMap { text -> Int? in
                    let parts = text.split(separator: " ")
                    return parts.count == 4 && parts[1] == "\(thread)" ? Int(parts[3]) : nil
                }
                XCTAssertEqual(indices, Array(0..<postsPerThread), "thread \(thread)'s posts out of order")
            }
            let interleavings = zip(delivered.counts, delivered.counts.dropFirst())
                .filter { Int($0 - 1) / postsPerThread != Int($1 - 1) / postsPerThread }.count
            XCTAssertGreaterThan(interleavings, 0, "the threads never interleaved")

            // The widgets show the last value delivered, and so does the model.
            XCTAssertEqual(status.value, delivered.statuses.last)
            XCTAssertEqual(String(cString: gtk_editable_get_text(gtkEntry.opaque)), delivered.statuses.last)
            XCTAssertEqual(String(cString: gtk_label_get_text(gtkLabel.opaque)), delivered.statuses.last)
            XCTAssertEqual(counter.value, delivered.counts.last)
            XCTAssertEqual(gtk_spin_button_get_value(gtkSpin.opaque), delivered.counts.last)
            XCTAssertEqual(status._observerCount, 3, "binding, label, recorder")
        }
    }
}

@MainActor
private final class Recorder {
    var statuses: [String] = []
    var counts: [Double] = []
}
