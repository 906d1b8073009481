// The core's speed tricks, in one place. Everything else in the module reads
// as plain Swift; each trick below says what it buys, measured with
// `Benchmarks/run` (CoreBenchmarks, p50 per operation, this machine, with and
// without the trick in one sitting).
//
// NB: `@exclusivity(unchecked)` on the state the set and notify paths touch:
// `Observable`'s storage, observer list and notification flags,
// `ObservableNode.dependents` and `Propagation.batchDepth`; and on what a
// binding's write touches (`ControlBinding`'s flags and last agreed value,
// `AnyBinding.writes`: about 1,100 instructions of model → entry's
// exclusivity checks, callgrind). No access to them
// overlaps another (observers are called with copies, and all of it is on the
// main actor), so the run-time exclusivity check on each access is pure
// overhead. Without it: a set with one observer 18.6 ns (16.4 ns with),
// subscribe and cancel 144 ns (117 ns), a derived recompute 261 ns (220 ns),
// a batch of four changes 1.60 µs (1.27 µs). Swift takes the attribute only on
// the stored property itself, so it stays on those declarations, each pointing
// here.
//
// NB: no retain between a token and its source: `_UnretainedSource` in
// `ObservationToken.source`, `_UnretainedToken` in `Observable.Observer.token`
// (Internal/UnretainedReferences.swift). Each side clears its reference before the
// other can go (the token removes its entry when cancelled or released; the
// source ends its tokens in its deinit), so neither needs a retain nor a weak
// reference's side table. Subscribing then costs one allocation, the token.
// The token keeps an address rather than an `unowned(unsafe)` reference
// because reading one into a local retained and released the source on
// each cancel: with the address called through `_withUnsafeGuaranteedRef`,
// and the observer removed from the end of the list (the newest is most
// often ended first; removing the last entry moves none), a subscribe and
// cancel went from 640 to 545 instructions (callgrind, 100,000 rounds).
//
// NB: `ObservationToken.cancel()` is `@inlinable`, so a caller ends an
// observation without a call into this module first: subscribe and cancel
// 53.3 ns against 55.4 without it (p50 of three runs each, one sitting).
//
// NB: `bitwiseEqual`, below: an equal-value set of an `Int`, `Double` or `Bool`
// costs one comparison (0.2 ns) instead of a call of the type's `==` through
// a closure.
//
// NB: `ObservationToken`'s deinit is nonisolated, not `isolated deinit`:
// the executor check of an isolated deinit cost more than the rest of a
// subscribe and cancel together. A token that has ended returns at once,
// before asking which thread it is on (its `observerID` is atomic for that
// one read, acquiring what its source's end released): subscribe and cancel
// 50.6 ns against 53.3 with the thread asked first. On the main thread
// (checked against the recorded thread, below) a live token ends at once. Released on another thread, a live token must not be freed
// while its source still points at it: `OffMainRelease` has it leave what
// must end under a lock that the source's deinit takes too, and the main
// actor ends it on its next turn. The token's fields are `nonisolated(unsafe)`
// for that one reader, and `@exclusivity(unchecked)` like the observable's.
//
// NB: `runOnMainThread`, below, in place of `MainActor.assumeIsolated` in the
// GTK layer's signal trampolines: GTK emits on the main thread, and asking
// the executor whether it is the main actor's costs more than the handler
// that ignores a binding's own write.
//
// NB: `sameBytes`, below, compares an editable's text with a value with
// glibc's strnlen and memcmp, from a nonisolated function whose closure is
// not checked against the executor (a loop over the string's UTF-8 view
// cost about 570 instructions for 17 bytes, callgrind), and
// `Widget.pointer` is `@exclusivity(unchecked)`: both are read several
// times per change. Each executor check these
// replace cost about 220 instructions (callgrind); model → entry went from
// 1.068× the raw setter to 1.02–1.05× in single callgrind runs, though full
// runs of the table, whose counts move by about 1.5%, read 1.047–1.069×.

import Glibc

/// Whether two values of a plain-data type have the same bits, which for an
/// `Equatable` type means equal (`==` is reflexive; NaN, which is not equal
/// to itself, is the one exception and counts as a duplicate here). Other
/// types, and plain ones with different bits (-0.0 and 0.0), answer `false`
/// and go to `==`.
@inlinable @inline(__always)
func bitwiseEqual<Value>(_ a: Value, _ b: Value) -> Bool {
    guard _isPOD(Value.self) else { return false }
    switch MemoryLayout<Value>.size {
    case 1: return unsafeBitCast(a, to: UInt8.self) == unsafeBitCast(b, to: UInt8.self)
    case 2: return unsafeBitCast(a, to: UInt16.self) == unsafeBitCast(b, to: UInt16.self)
    case 4: return unsafeBitCast(a, to: UInt32.self) == unsafeBitCast(b, to: UInt32.self)
    case 8: return unsafeBitCast(a, to: UInt64.self) == unsafeBitCast(b, to: UInt64.self)
    default: return false
    }
}

/// Runs `body`, a main-actor closure, from C code that GTK calls on the main
/// thread (a signal's trampoline): checked against the recorded main thread,
/// not the executor.
@inline(__always)
package func runOnMainThread<Result>(_ body: @MainActor () -> Result) -> Result {
    precondition(MainThread.isCurrent, "TwoWayBinding: a GTK signal was emitted off the main thread")
    return withoutActuallyEscaping(body) { body in
        unsafeBitCast(body, to: (() -> Result).self)()
    }
}

/// Whether `text`, a NUL-terminated C string, holds exactly `value`'s UTF-8.
/// Nonisolated, so its closure is not checked against the executor.
package func sameBytes(_ value: String, _ text: UnsafePointer<CChar>) -> Bool {
    let same = value.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
        // strnlen reads no further than the value's length and one byte:
        // a shorter text ends at its NUL.
        guard strnlen(text, bytes.count + 1) == bytes.count else { return false }
        guard let base = bytes.baseAddress else { return true }
        return memcmp(base, text, bytes.count) == 0
    }
    if let same { return same }
    var cursor = text
    for byte in value.utf8 {
        guard UInt8(bitPattern: cursor.pointee) == byte else { return false }
        cursor += 1
    }
    return cursor.pointee == 0
}

/// The main thread, to tell it without asking the executor. Read first when
/// an observable is made, on the main actor, so that is the thread it records.
enum MainThread {
    static let thread: pthread_t = pthread_self()

    static var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }
}
