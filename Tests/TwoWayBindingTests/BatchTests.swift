import XCTest
import TwoWayBinding

final class BatchTests: XCTestCase {
    @MainActor func testBatch_notifiesEachObserverOnceWithFinalValue() async {
        let value = Observable(0)
        let recorder = Recorder(value)
        batch {
            value.value = 1
            value.value = 2
            value.value = 3
            XCTAssertEqual(recorder.count, 0, "nothing is delivered inside the batch")
            XCTAssertEqual(value.value, 3, "reads inside the batch see the new value")
        }
        XCTAssertEqual(recorder.received, [3])
    }

    @MainActor func testBatch_derivedFromSeveralInputsUpdatesOnce() async {
        let a = Observable(1), b = Observable(2), c = Observable(3), d = Observable(4)
        let sum = Derived(from: [a, b, c, d]) { a.value + b.value + c.value + d.value }
        let recorder = Recorder(sum)
        let before = sum._computeCount
        batch {
            a.value = 10
            b.value = 20
            c.value = 30
            d.value = 40
        }
        XCTAssertEqual(recorder.received, [100])
        XCTAssertEqual(sum._computeCount, before + 1)
    }

    @MainActor func testBatch_valueSetBackToStartNotifiesNobody() async {
        let value = Observable("same")
        let recorder = Recorder(value)
        batch {
            value.value = "changed"
            value.value = "same"
        }
        XCTAssertEqual(recorder.count, 0)
    }

    @MainActor func testNestedBatches_deliverAtOutermostEnd() async {
        let value = Observable(0)
        let recorder = Recorder(value)
        batch {
            batch { value.value = 1 }
            XCTAssertEqual(recorder.count, 0)
            value.value = 2
        }
        XCTAssertEqual(recorder.received, [2])
    }

    @MainActor func testBatch_returnsTheBodysResult() async {
        let value = Observable(0)
        let result = batch { () -> Int in
            value.value = 4
            return value.value * 2
        }
        XCTAssertEqual(result, 8)
    }

    @MainActor func testBatch_throwingBodyStillDelivers() async {
        struct Failure: Error {}
        let value = Observable(0)
        let recorder = Recorder(value)
        XCTAssertThrowsError(try batch {
            value.value = 9
            throw Failure()
        })
        XCTAssertEqual(recorder.received, [9])
    }

    @MainActor func testObserverSettingAnotherObservableDuringCommit() async {
        let a = Observable(0), b = Observable(0)
        let link = a.observe { b.value = $0 * 2 }
        let recorderB = Recorder(b)
        batch { a.value = 5 }
        XCTAssertEqual(recorderB.received, [10])
        withExtendedLifetime(link) {}
    }
}
