// Binds N widgets of a generated form (half entries, half spin buttons, each
// to its own Observable) for N = 100, 1,000 and 10,000, and prints, per N:
// the time to bind them all, the heap bytes the binding keeps (glibc
// mallinfo2, in-use bytes after minus before), the resident-set growth, and
// the time for one change of every model to reach its widget.
// Output: one line per N, tab-separated, for Benchmarks/report.py:
//   scale <N> <bind ns> <bind heap bytes> <rss bytes> <update-all ns>
// Each N is measured in a fresh window, three times (twenty for N = 100);
// the median is printed.

import CBenchGtk
import CGtkBench
import Glibc
import TwoWayBinding
import TwoWayBindingGtk

func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func heapInUse() -> Int { Int(bench_heap_in_use()) }
func residentBytes() -> Int { Int(bench_resident_bytes()) }

struct Sample { var bind: UInt64; var heap: Int; var rss: Int; var update: UInt64 }

@MainActor
func measure(_ count: Int) throws -> Sample {
    let window = gtk_window_new()!
    let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
    gtk_window_set_child(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self), box)
    var spins: [OpaquePointer] = []
    var entries: [UnsafeMutablePointer<GtkWidget>] = []
    for index in 0..<count {
        let widget = index.isMultiple(of: 2) ? bench_entry_new()! : bench_spin_button_new()!
        gtk_box_append(UnsafeMutableRawPointer(box).assumingMemoryBound(to: GtkBox.self), widget)
        if index.isMultiple(of: 2) { entries.append(widget) } else { spins.append(OpaquePointer(widget)) }
    }
    let texts = (0..<entries.count).map { Observable("answer \($0)") }
    let numbers = (0..<spins.count).map { Observable(Double($0 % 1000)) }
    bench_pump()

    let heapBefore = heapInUse(), rssBefore = residentBytes()
    let start = now()
    for (entry, model) in zip(entries, texts) { try Entry.wrapping(entry).bind(with: model) }
    for (spin, model) in zip(spins, numbers) { try SpinButton.wrapping(spin).bind(with: model) }
    let bound = now()
    let heap = heapInUse() - heapBefore, rss = residentBytes() - rssBefore

    let updateStart = now()
    for model in texts { model.value += "!" }
    for model in numbers { model.value = model.value == 999 ? 0 : model.value + 1 }
    let updated = now()

    gtk_window_destroy(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self))
    bench_pump()
    withExtendedLifetime((texts, numbers)) {}
    return Sample(bind: bound - start, heap: heap, rss: rss, update: updated - updateStart)
}

func median<T: Comparable>(_ values: [T]) -> T { values.sorted()[values.count / 2] }

try MainActor.assumeIsolated {
    guard gtk_init_check() != 0 else {
        fputs("scale-form: no display (run under xvfb-run)\n", stderr)
        exit(1)
    }
    _ = try measure(100)  // warm-up: GTK's type and style setup, first allocations
    for count in [100, 1_000, 10_000] {
        // The smallest form binds in about a millisecond, which a timer tick
        // or a page fault moves by half: it is measured more often.
        let samples = try (0..<max(3, 2_000 / count)).map { _ in try measure(count) }
        print("scale\t\(count)\t\(median(samples.map(\.bind)))\t\(median(samples.map(\.heap)))\t\(median(samples.map(\.rss)))\t\(median(samples.map(\.update)))")
    }
}
