import Foundation

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, fast, seedable generator, so
/// that a failing run can be replayed exactly from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < p
    }

    /// One of `choices`, which must not be empty.
    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &self)]
    }

    /// An index drawn with the given relative weights.
    mutating func weighted(_ weights: [Int]) -> Int {
        var roll = Int.random(in: 0..<weights.reduce(0, +), using: &self)
        for (index, weight) in weights.enumerated() {
            if roll < weight { return index }
            roll -= weight
        }
        return weights.count - 1
    }
}

/// Seeds and sizes for randomized tests, overridable from the environment.
enum RandomizedRun {
    /// `RELIABILITY_SEED` (decimal or 0x-hex; `random` for a fresh one), else `fallback`.
    static func seed(default fallback: UInt64) -> UInt64 {
        guard let text = ProcessInfo.processInfo.environment["RELIABILITY_SEED"], !text.isEmpty else {
            return fallback
        }
        if text == "random" { return UInt64.random(in: 0...UInt64.max) }
        if text.hasPrefix("0x"), let value = UInt64(text.dropFirst(2), radix: 16) { return value }
        if let value = UInt64(text) { return value }
        return fallback
    }

    /// An integer from the environment variable `name`, else `fallback`.
    static func count(_ name: String, default fallback: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? fallback
    }
}
