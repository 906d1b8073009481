// Counts the instructions of every GTK case under valgrind's callgrind, for
// machines whose perf counts none:
//
//   valgrind --tool=callgrind --callgrind-out-file=DIR/gtk.%p gtk-instructions
//
// Each case is built and run once unmeasured, then its counters are zeroed,
// it runs `Ops.gtk` changes, and callgrind writes a dump named after it.
// GTK's queued work is done between cases, outside the counts.

import CBenchGtk
import GtkCases

try MainActor.assumeIsolated {
    for gtkCase in makeGtkCases() {
        let body = try gtkCase.make()
        body()
        bench_pump()
        bench_callgrind_zero()
        body()
        bench_callgrind_dump("\(gtkCase.name) x\(Ops.gtk)")
        bench_pump()
    }
}
