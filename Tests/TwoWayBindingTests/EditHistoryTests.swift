import XCTest
import TwoWayBinding

final class EditHistoryTests: XCTestCase {
    @MainActor func testUndo_restoresPreviousValue() async {
        let history = EditHistory()
        let tracking = ObservationToken.Bag()
        defer { tracking.cancelAll() }
        let flag = Observable(false)
        history.track(flag).store(in: tracking)
        flag.value = true
        XCTAssertTrue(history.canUndo.value)
        history.undo()
        XCTAssertEqual(flag.value, false)
        XCTAssertFalse(history.canUndo.value)
        XCTAssertTrue(history.canRedo.value)
    }

    @MainActor func testRedo_reappliesUndoneValue() async {
        let history = EditHistory()
        let tracking = ObservationToken.Bag()
        defer { tracking.cancelAll() }
        let years = Observable(1.0)
        history.track(years).store(in: tracking)
        years.value = 2
        years.value = 3
        history.undo()
        history.undo()
        XCTAssertEqual(years.value, 1)
        history.redo()
        XCTAssertEqual(years.value, 2)
        history.redo()
        XCTAssertEqual(years.value, 3)
        XCTAssertFalse(history.canRedo.value)
    }

    @MainActor func testConsecutiveKeystrokes_makeOneStep() async {
        let history = EditHistory()
        let tracking = ObservationToken.Bag()
        defer { tracking.cancelAll() }
        let name = Observable("")
        history.track(name, coalescing: true).store(in: tracking)
        for text in ["A", "Ad", "Ada"] { name.value = text }
        XCTAssertEqual(history._undoCount, 1)
        history.undo()
        XCTAssertEqual(name.value, "")
        history.redo()
        XCTAssertEqual(name.value, "Ada")
    }

    @MainActor func testTypingInAnotherField_startsNewStep() async {
        let history = EditHistory()
        let tracking = ObservationToken.Bag()
        defer { tracking.cancelAll() }
        let name = Observable(""), company = Observable("")
        history.track(name, coalescing: true).store(in: tracking)
        history.track(company, coalescing: true).store(in: tracking)
        name.value = "Ad"
        name.value = "Ada"
        company.value = "AE"
        name.value = "Ada L"
        XCTAssertEqual(history._undoCount, 3)
        history.undo()
        XCTAssertEqual(name.value, "Ada")
        history.undo()
        XCTAssertEqual(company.value, "")
    }

    @MainActor func testBreakCoalescing_startsNewStep() async {
        let history = EditHistory()
        let tracking = ObservationToken.Bag()
        defer { tracking.cancelAll() }
        let name = Observable("")
        history.track(name, coalescing: true).store(in: tracking)
        name.value = "Ada"
        history.breakCoalescing()
        name.value = "Ada L"
        history.undo()
        XCTAssertEqual(name.value, "Ada")
    }

    @MainActor func testNonCoalescingField_eachChangeIsAStep() async {
        let history = EditHistory()
        let tracking = ObservationToken.Bag()
        defer { tracking.cancelAll() }
        let years = Observable(0.0)
        history.track(years).store(in: tracking)
        years.value = 0.5
        years.value = 1
        XCTAssertEqual(history._undoCount, 2)
    }

    @MainActor func testBatch_isOneStep() async {
        let history = EditHistory()
        let tracking = ObservationToken.Bag()
        defer { tracking.cancelAll() }
        let a = Observable(""), b = Observable(0.0)
        history.track(a, coalescing: true).store(in: tracking)
        history.track(b).store(in: tracking)
        batch {
            a.value = "x"
            b.value = 5
        }
        XCTAssertEqual(history._undoCount, 1)
        history.undo()
        XCTAssertEqual(a.value, "")
        XCTAssertEqual(b.value, 0)
    }

    @MainActor func testUndo_notifiesObserversOnceAndIsNotRecorded() async {
        let history = EditHistory()
        let tracking = ObservationToken.Bag()
        defer { tracking.cancelAll() }
        let name = Observable("")
        history.track(name, coalescing: true).store(in: tracking)
        name.value = "Ada"
        let recorder = Recorder(name)
        history.undo()
        XCTAssertEqual(recorder.received, [""])
        XCTAssertEqual(history._undoCount, 0)
    }

    @MainActor func testNewEdit_clearsRedo() async {
        let history = EditHistory()
        let tracking = ObservationToken.Bag()
        defer { tracking.cancelAll() }
        let years = Observable(0.0)
        history.track(years).store(in: tracking)
        years.value = 1
        history.undo()
        years.value = 2
        XCTAssertFalse(history.canRedo.value)
        history.redo()
        XCTAssertEqual(years.value, 2)
    }

    @MainActor func testUndoReachesBoundControl() async {
        let history = EditHistory()
        let tracking = ObservationToken.Bag()
        defer { tracking.cancelAll() }
        let name = Observable("")
        history.track(name, coalescing: true).store(in: tracking)
        let field = FakeTextField()
        field.bind(with: name)
        field.type("A")
        field.type("Ad")
        history.undo()
        XCTAssertEqual(field.text, "")
        history.redo()
        XCTAssertEqual(field.text, "Ad")
    }

    @MainActor func testLimit_dropsOldestSteps() async {
        let history = EditHistory(limit: 3)
        let tracking = ObservationToken.Bag()
        defer { tracking.cancelAll() }
        let years = Observable(0.0)
        history.track(years).store(in: tracking)
        for value in 1...5 { years.value = Double(value) }
        XCTAssertEqual(history._undoCount, 3)
        history.undo(); history.undo(); history.undo()
        XCTAssertEqual(years.value, 2)
    }

    @MainActor func testUndoWithNothingToUndo_doesNothing() async {
        let history = EditHistory()
        let tracking = ObservationToken.Bag()
        defer { tracking.cancelAll() }
        let years = Observable(4.0)
        history.track(years).store(in: tracking)
        history.undo()
        history.redo()
        XCTAssertEqual(years.value, 4)
    }
}
