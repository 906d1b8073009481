import XCTest
import TwoWayBinding

final class ObservableTests: XCTestCase {
    @MainActor func testSet_notifiesObserversInSubscriptionOrder() async {
        let observable = Observable(0)
        var calls: [String] = []
        let first = observable.observe { calls.append("first \($0)") }
        let second = observable.observe { calls.append("second \($0)") }
        let third = observable.observe { calls.append("third \($0)") }
        observable.value = 7
        XCTAssertEqual(calls, ["first 7", "second 7", "third 7"])
        withExtendedLifetime((first, second, third)) {}
    }

    @MainActor func testSet_deliversSynchronously() async {
        let observable = Observable("a")
        var seen = ""
        let token = observable.observe { seen = $0 }
        observable.value = "b"
        XCTAssertEqual(seen, "b")
        withExtendedLifetime(token) {}
    }

    @MainActor func testEqualValue_notifiesNobody() async {
        let observable = Observable(5)
        let recorder = Recorder(observable)
        observable.value = 5
        observable.value = 5
        XCTAssertEqual(recorder.count, 0)
        observable.value = 6
        XCTAssertEqual(recorder.received, [6])
    }

    @MainActor func testNonEquatableValue_notifiesEverySet() async {
        struct Opaque { let id: Int }
        let observable = Observable(Opaque(id: 1))
        var count = 0
        let token = observable.observe { _ in count += 1 }
        observable.value = Opaque(id: 1)
        observable.value = Opaque(id: 1)
        XCTAssertEqual(count, 2)
        withExtendedLifetime(token) {}
    }

    @MainActor func testOptional_settingNilNotifies() async {
        let observable = Observable<String?>("text")
        let recorder = Recorder(observable)
        observable.value = nil
        XCTAssertEqual(recorder.received, [nil])
        observable.value = nil
        XCTAssertEqual(recorder.count, 1, "nil to nil is an equal set")
        observable.value = "again"
        XCTAssertEqual(recorder.received, [nil, "again"])
    }

    @MainActor func testSendInitial_deliversCurrentValueAtOnce() async {
        let observable = Observable(42)
        let recorder = Recorder(observable, sendInitial: true)
        XCTAssertEqual(recorder.received, [42])
        observable.value = 43
        XCTAssertEqual(recorder.received, [42, 43])
    }

    @MainActor func testWithoutSendInitial_nothingUntilAChange() async {
        let observable = Observable(42)
        let recorder = Recorder(observable)
        XCTAssertEqual(recorder.count, 0)
    }

    @MainActor func testReentrantSet_doesNotLoopAndKeepsFinalValue() async {
        let observable = Observable(0)
        var seenByClamp: [Int] = []
        // A clamping observer that writes back into what it observes.
        let clamp = observable.observe { value in
            seenByClamp.append(value)
            if value > 10 { observable.value = 10 }
        }
        let later = Recorder(observable)
        observable.value = 25
        XCTAssertEqual(observable.value, 10)
        XCTAssertEqual(seenByClamp, [25, 10])
        XCTAssertEqual(later.received, [10], "a later observer never sees the superseded value")
        withExtendedLifetime(clamp) {}
    }

    @MainActor func testReentrantSet_earlierObserversSeeFinalValueLast() async {
        let observable = Observable(0)
        let early = Recorder(observable)
        let clamp = observable.observe { if $0 < 0 { observable.value = 0 } }
        observable.value = -5
        XCTAssertEqual(early.received, [-5, 0])
        XCTAssertEqual(early.received.last, observable.value)
        withExtendedLifetime(clamp) {}
    }

    @MainActor func testObserverThatKeepsChangingTheValue_isStopped() async {
        let observable = Observable(0)
        let runaway = observable.observe { observable.value = $0 + 1 }
        observable.value = 1
        XCTAssertGreaterThan(observable.value, 1)
        XCTAssertLessThanOrEqual(observable.value, 100, "notification rounds are bounded")
        withExtendedLifetime(runaway) {}
    }

    @MainActor func testObserverCancellingAnotherDuringNotification_skipsIt() async {
        let observable = Observable(0)
        var secondCalls = 0
        var second: ObservationToken?
        let first = observable.observe { _ in second?.cancel() }
        second = observable.observe { _ in secondCalls += 1 }
        observable.value = 1
        XCTAssertEqual(secondCalls, 0)
        XCTAssertEqual(observable._observerCount, 1)
        withExtendedLifetime(first) {}
    }

    @MainActor func testObserverAddedDuringNotification_getsNextChangeOnly() async {
        let observable = Observable(0)
        var lateCalls: [Int] = []
        var late: ObservationToken?
        let first = observable.observe { _ in
            if late == nil { late = observable.observe { lateCalls.append($0) } }
        }
        observable.value = 1
        XCTAssertEqual(lateCalls, [])
        observable.value = 2
        XCTAssertEqual(lateCalls, [2])
        withExtendedLifetime(first) {}
    }

    @MainActor func testPost_fromBackgroundThreadIsDeliveredOnMainInOrder() async {
        let observable = Observable(0)
        var seen: [Int] = []
        var onMain = true
        let done = expectation(description: "last value arrives")
        let token = observable.observe { value in
            onMain = onMain && Thread.isMainThread
            seen.append(value)
            if value == 50 { done.fulfill() }
        }
        DispatchQueue.global().async {
            for value in 1...50 { observable.post(value) }
        }
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(seen, Array(1...50))
        XCTAssertTrue(onMain)
        withExtendedLifetime(token) {}
    }
}
