// The references between an observable and its tokens, held without a retain
// (Internal/FastPaths.swift says what that buys). They are the module's only
// unsafe references: `Observable.swift` and `ObservationToken.swift` hold
// these types and read as plain Swift. Inlined, the wrappers cost nothing:
// CoreBenchmarks, three alternating runs each of the code before and after
// them, read subscribe and cancel 71-81 ns before and 73-79 after, a set with
// one observer 30.1-31.9 and 29.3-31.3.

/// A token, as its source's observer entry holds it: unretained, because the
/// token removes the entry before it goes, so the entry never outlives it.
@usableFromInline
struct _UnretainedToken {
    @usableFromInline unowned(unsafe) let token: ObservationToken

    @inlinable
    init(_ token: ObservationToken) {
        self.token = token
    }
}

/// A source, as its tokens hold it: by address, because the source ends its
/// tokens in its deinit, before the address could dangle. An address rather
/// than an `unowned(unsafe)` reference: reading one of those into a local
/// retained and released the source on each cancel, and an optional of it
/// inside an optional struct read as `nil` when it was not (Swift 6.3).
@usableFromInline
struct _UnretainedSource: Equatable, @unchecked Sendable {
    @usableFromInline let address: UnsafeMutableRawPointer

    @inlinable
    init(_ source: ObservableNode) {
        address = Unmanaged.passUnretained(source).toOpaque()
    }

    /// Calls `body` with the source, which is alive, without retaining it.
    /// Nonisolated: a closure in main-actor code would check the executor on
    /// every call.
    @inlinable
    nonisolated func withSource(_ body: (ObservableNode) -> Void) {
        Unmanaged<ObservableNode>.fromOpaque(address)._withUnsafeGuaranteedRef(body)
    }
}

extension Observable {
    /// `source`, which a token of this observable's type holds, as what it
    /// is, without a dynamic cast's check.
    @inlinable
    static func _unchecked(_ source: ObservableNode) -> Observable<Value> {
        unsafeDowncast(source, to: Observable<Value>.self)
    }
}
