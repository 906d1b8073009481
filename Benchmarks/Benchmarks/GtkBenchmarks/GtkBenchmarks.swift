// Model ⇄ widget through our binding, against the raw GTK setter, a bare
// signal handler and GObject's own GBinding, on real widgets in a shown window
// (run under Xvfb: GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none).
//
// Every benchmark does `Ops.gtk` changes per measured iteration (the figure
// after "x" in its name); the report divides by it. Values change on every
// operation, so no setter short-circuits. The widgets' queued redraws and
// resizes are processed between iterations, outside the measurement.

import Benchmark
import CBenchGtk
import GtkCases

nonisolated(unsafe) let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .instructions, .mallocCountTotal],
    timeUnits: .nanoseconds,
    units: [.instructions: .count, .mallocCountTotal: .count],
    warmupIterations: 3,
    scalingFactor: .one,
    maxDuration: .milliseconds(1_500),
    maxIterations: 500
)

/// Registers each case; its fixture is built once, on the main actor, the
/// first time the benchmark runs.
func register(_ gtkCase: GtkCase) {
    nonisolated(unsafe) var body: (@MainActor () -> Void)?
    Benchmark("\(gtkCase.name) x\(Ops.gtk)", configuration: configuration) { @MainActor benchmark async throws in
        if body == nil { body = try gtkCase.make() }
        benchmark.startMeasurement()
        body!()
        benchmark.stopMeasurement()
        bench_pump()
    }
}

let benchmarks: @Sendable () -> Void = {
    for gtkCase in makeGtkCases() { register(gtkCase) }
}
