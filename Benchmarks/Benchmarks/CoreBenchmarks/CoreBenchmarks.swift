// The binding core against OpenCombine, operation for operation, in one run.
//
// Every benchmark runs `Ops.core` operations per measured iteration (the
// figure after "x" in its name); `Benchmarks/report.py` divides time,
// instructions and mallocs by it. Fixtures are built before
// `startMeasurement()` and torn down after `stopMeasurement()`, so only the
// operations themselves are counted. Observers do the same small work on both
// sides: add the value to a sink.

import Benchmark
import OpenCombine
import TwoWayBinding

enum Ops {
    static let core = 10_000
}

/// Where observers put what they hear, so that no work is optimized away.
@exclusivity(unchecked) nonisolated(unsafe) var heard = 0

nonisolated(unsafe) let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .instructions, .mallocCountTotal],
    timeUnits: .nanoseconds,
    units: [.instructions: .count, .mallocCountTotal: .count],
    warmupIterations: 5,
    scalingFactor: .one,
    maxDuration: .milliseconds(1_500),
    maxIterations: 2_000
)

/// Registers `name` (suffixed with the operation count): `make` builds the
/// fixture on the main actor and returns the measured body.
///
/// The Benchmark runner calls benchmarks from its own threads; the closure is
/// `@MainActor`, so the runner hops to the main actor first, and measurement
/// starts only once there.
func bench(_ name: String, _ make: @escaping @MainActor () -> (@MainActor () -> Void)) {
    Benchmark("\(name) x\(Ops.core)", configuration: configuration) { @MainActor benchmark async in
        let body = make()
        benchmark.startMeasurement()
        body()
        benchmark.stopMeasurement()
        blackHole(heard)
    }
}

// MARK: - Ours

@MainActor
func observed(_ observers: Int) -> (Observable<Int>, [ObservationToken]) {
    let model = Observable(0)
    let tokens = (0..<observers).map { _ in model.observe { heard &+= $0 } }
    return (model, tokens)
}

func registerOurs() {
    // What the harness itself costs per iteration (its hop to the main
    // actor allocates); the report subtracts it from every benchmark.
    bench("baseline: empty body") { { } }
    for count in [1, 2, 10] {
        bench("ours: set, \(count) observer\(count == 1 ? "" : "s")") {
            let (model, tokens) = observed(count)
            return {
                for i in 1...Ops.core { model.value = i }
                withExtendedLifetime(tokens) {}
            }
        }
    }
    bench("ours: equal-value set") {
        let (model, tokens) = observed(1)
        model.value = 42
        return {
            for _ in 1...Ops.core { model.value = 42 }
            withExtendedLifetime(tokens) {}
        }
    }
    bench("ours: subscribe and cancel") {
        let (model, tokens) = observed(1)
        return {
            for _ in 1...Ops.core {
                let token = model.observe { heard &+= $0 }
                token.cancel()
            }
            withExtendedLifetime(tokens) {}
        }
    }
    bench("ours: derived recompute") {
        let model = Observable(0)
        let doubled = model.map { $0 &* 2 }
        let token = doubled.observe { heard &+= $0 }
        return {
            for i in 1...Ops.core { model.value = i }
            withExtendedLifetime((doubled, token)) {}
        }
    }
    bench("ours: batch of 4 changes") {
        let inputs = (0..<4).map { _ in Observable(0) }
        var tokens = inputs.map { input in input.observe { heard &+= $0 } }
        let sum = Derived(from: inputs) { inputs.reduce(0) { $0 &+ $1.value } }
        tokens.append(sum.observe { heard &+= $0 })
        return {
            for i in 1...Ops.core {
                batch {
                    inputs[0].value = i
                    inputs[1].value = i
                    inputs[2].value = i
                    inputs[3].value = i
                }
            }
            withExtendedLifetime((sum, tokens)) {}
        }
    }
}

// MARK: - OpenCombine

@MainActor
func subscribed(_ subscribers: Int) -> (CurrentValueSubject<Int, Never>, [AnyCancellable]) {
    let subject = CurrentValueSubject<Int, Never>(0)
    let cancellables = (0..<subscribers).map { _ in subject.sink { heard &+= $0 } }
    return (subject, cancellables)
}

func registerOpenCombine() {
    for count in [1, 2, 10] {
        bench("OpenCombine: send, \(count) subscriber\(count == 1 ? "" : "s")") {
            let (subject, cancellables) = subscribed(count)
            return {
                for i in 1...Ops.core { subject.send(i) }
                withExtendedLifetime(cancellables) {}
            }
        }
    }
    bench("OpenCombine: equal-value send, removeDuplicates") {
        let subject = CurrentValueSubject<Int, Never>(42)
        let cancellable = subject.removeDuplicates().sink { heard &+= $0 }
        return {
            for _ in 1...Ops.core { subject.send(42) }
            withExtendedLifetime(cancellable) {}
        }
    }
    bench("OpenCombine: sink and cancel") {
        let (subject, cancellables) = subscribed(1)
        return {
            for _ in 1...Ops.core {
                let cancellable = subject.sink { heard &+= $0 }
                cancellable.cancel()
            }
            withExtendedLifetime(cancellables) {}
        }
    }
    bench("OpenCombine: map, removeDuplicates") {
        let subject = CurrentValueSubject<Int, Never>(0)
        let cancellable = subject.map { $0 &* 2 }.removeDuplicates().sink { heard &+= $0 }
        return {
            for i in 1...Ops.core { subject.send(i) }
            withExtendedLifetime(cancellable) {}
        }
    }
    // OpenCombine 0.14 has no combineLatest and Combine no transactions: the
    // sum is a fifth subject that each input's change recomputes.
    bench("OpenCombine: 4 sends, sum subject") {
        let inputs = (0..<4).map { _ in CurrentValueSubject<Int, Never>(0) }
        let sum = CurrentValueSubject<Int, Never>(0)
        var cancellables = inputs.map { input in input.sink { heard &+= $0 } }
        for input in inputs {
            cancellables.append(input.sink { _ in sum.send(inputs.reduce(0) { $0 &+ $1.value }) })
        }
        cancellables.append(sum.removeDuplicates().sink { heard &+= $0 })
        return {
            for i in 1...Ops.core {
                inputs[0].send(i)
                inputs[1].send(i)
                inputs[2].send(i)
                inputs[3].send(i)
            }
            withExtendedLifetime(cancellables) {}
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    registerOurs()
    registerOpenCombine()
}
