import Foundation
import XCTest
import TwoWayBinding

/// Lets a test drop the last reference to a token on another thread.
private final class TokenHolder: @unchecked Sendable {
    var tokens: [ObservationToken]
    init(_ tokens: [ObservationToken]) { self.tokens = tokens }
}

final class ObservationTokenTests: XCTestCase {
    @MainActor func testCancel_stopsDelivery() async {
        let observable = Observable(0)
        var count = 0
        let token = observable.observe { _ in count += 1 }
        observable.value = 1
        token.cancel()
        observable.value = 2
        XCTAssertEqual(count, 1)
        XCTAssertFalse(token.isActive)
        XCTAssertEqual(observable._observerCount, 0)
    }

    @MainActor func testReleasingToken_endsObservation() async {
        let observable = Observable(0)
        var count = 0
        var token: ObservationToken? = observable.observe { _ in count += 1 }
        XCTAssertEqual(observable._observerCount, 1)
        withExtendedLifetime(token) {}
        token = nil
        observable.value = 1
        XCTAssertEqual(count, 0)
        XCTAssertEqual(observable._observerCount, 0)
    }

    @MainActor func testTokenReleasedOnAnotherThread_endsOnTheMainActor() async {
        let observable = Observable(0)
        var heard = 0
        var onCancelRanOnMainThread: Bool?
        let holder = TokenHolder([
            observable.observe { _ in heard += 1 },
            ObservationToken { onCancelRanOnMainThread = Thread.isMainThread },
        ])
        XCTAssertEqual(observable._observerCount, 1)
        let released = expectation(description: "the tokens released on a background thread")
        DispatchQueue.global().async {
            holder.tokens = []
            // Queued behind the endings the release queued.
            DispatchQueue.main.async { released.fulfill() }
        }
        await fulfillment(of: [released], timeout: 5)
        XCTAssertEqual(observable._observerCount, 0, "the observation ended")
        XCTAssertEqual(onCancelRanOnMainThread, true, "on the main actor, not the releasing thread")
        observable.value = 1
        XCTAssertEqual(heard, 0)
        if observable._observerCount != 0 {
            // The observation outlived its freed token: the observable's end
            // would tell that freed token, and a crash then could swallow the
            // failures above. It is kept for the rest of the run instead.
            _ = Unmanaged.passRetained(observable)
        }
    }

    @MainActor func testTokenReleasedOnAnotherThread_whoseSourceEndsFirst_endsSafely() async {
        var observable: Observable<Int>? = Observable(0)
        weak let weakObservable = observable
        let stays = observable!.observe { _ in }
        let holder = TokenHolder([observable!.observe { _ in }])
        // The main thread waits while another releases the token, so its
        // ending is still queued for the main actor when the source goes.
        Self.releaseOnAnotherThread(holder)
        XCTAssertEqual(observable?._observerCount, 2, "the ending waits for the main actor")
        observable = nil
        XCTAssertNil(weakObservable)
        XCTAssertFalse(stays.isActive, "the source's other token was told it ended")
        let drained = expectation(description: "the main queue ran what the release queued")
        DispatchQueue.main.async { drained.fulfill() }
        await fulfillment(of: [drained], timeout: 5)
        stays.cancel()
    }

    @MainActor func testEndedTokensReleasedOnAnotherThread_touchNothing() async {
        let observable = Observable(0)
        var heard = 0
        let stays = observable.observe { heard += $0 }
        // The holder has the only references, so the tokens end on the other thread.
        let holder = TokenHolder([observable.observe { _ in XCTFail("a cancelled observer was called") }])
        holder.tokens[0].cancel()
        var gone: Observable<Int>? = Observable(0)
        holder.tokens.append(gone!.observe { _ in })
        gone = nil
        XCTAssertFalse(holder.tokens[1].isActive)

        Self.releaseOnAnotherThread(holder)
        let drained = expectation(description: "the main queue ran anything the release queued")
        DispatchQueue.main.async { drained.fulfill() }
        await fulfillment(of: [drained], timeout: 5)

        XCTAssertEqual(observable._observerCount, 1, "the live observation is left alone")
        observable.value = 2
        XCTAssertEqual(heard, 2)
        stays.cancel()
    }

    /// Empties `holder` on a thread of its own and waits for it.
    private static func releaseOnAnotherThread(_ holder: TokenHolder) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            holder.tokens = []
            done.signal()
        }
        thread.start()
        done.wait()
    }

    @MainActor func testCancelTwice_isHarmless() async {
        let observable = Observable(0)
        let token = observable.observe { _ in }
        token.cancel()
        token.cancel()
        XCTAssertEqual(observable._observerCount, 0)
    }

    @MainActor func testTokenOutlivingObservable_cancelsSafely() async {
        var observable: Observable<Int>? = Observable(0)
        weak let weakObservable = observable
        let token = observable!.observe { _ in }
        observable = nil
        XCTAssertNil(weakObservable, "a token does not keep its observable alive")
        token.cancel()
        XCTAssertFalse(token.isActive)
    }

    @MainActor func testObserverKeepingItsOwnSource_goesWithItsToken() async {
        var heard: [Int] = []
        var token: ObservationToken?
        weak var weakSource: Observable<Int>?
        do {
            // A view's observer that keeps its derived source alive: the
            // source's last reference is the handler its cancel removes.
            let source = Observable(0)
            weakSource = source
            token = source.observe { [source] value in heard.append(value + source.value * 0) }
            let other = source.observe { heard.append(-$0) }
            source.value = 1
            other.cancel()
        }
        XCTAssertNotNil(weakSource, "the observer keeps its source")
        XCTAssertEqual(heard, [1, -1])
        token?.cancel()
        XCTAssertNil(weakSource, "the cancel released the observer and, with it, the source")
        XCTAssertEqual(token?.isActive, false)
        token = nil
    }

    @MainActor func testClosureToken_runsOnCancelOnce() async {
        var runs = 0
        var token: ObservationToken? = ObservationToken { runs += 1 }
        token?.cancel()
        token?.cancel()
        token = nil
        XCTAssertEqual(runs, 1)
    }

    @MainActor func testBag_cancelAllEndsEveryObservation() async {
        let a = Observable(0), b = Observable("x")
        let bag = ObservationToken.Bag()
        var calls = 0
        a.observe { _ in calls += 1 }.store(in: bag)
        b.observe { _ in calls += 1 }.store(in: bag)
        XCTAssertEqual(bag.count, 2)
        a.value = 1
        bag.cancelAll()
        a.value = 2
        b.value = "y"
        XCTAssertEqual(calls, 1)
        XCTAssertEqual(bag.count, 0)
        XCTAssertEqual(a._observerCount + b._observerCount, 0)
    }

    @MainActor func testReleasingBag_endsEveryObservation() async {
        let a = Observable(0)
        var bag: ObservationToken.Bag? = ObservationToken.Bag()
        a.observe { _ in }.store(in: bag!)
        a.observe { _ in }.store(in: bag!)
        XCTAssertEqual(a._observerCount, 2)
        withExtendedLifetime(bag) {}
        bag = nil
        XCTAssertEqual(a._observerCount, 0)
    }

    @MainActor func testTokens_areHashableByIdentity() async {
        let a = Observable(0)
        let t1 = a.observe { _ in }, t2 = a.observe { _ in }
        XCTAssertEqual(Set([t1, t2, t1]).count, 2)
    }
}
