@testable import SurveyFormApp
import TwoWayBinding
import XCTest

/// The draft's autosave, its wait run by the test: a save whose wait has
/// ended when a submit cancels it is not made, or the blank form the submit
/// leaves would be a draft, offered as unsent answers at the next start.
@MainActor
final class DraftAutosaveTests: XCTestCase {
    func testASaveCancelledAsItsWaitEnds_isNotMade_andTheNextChangeIsSaved() async {
        let answer = Observable("")
        let changes = Derived(from: [answer]) { answer.value }
        let gate = Gate()
        let saves = Saves()
        let autosave = DraftAutosave(
            changes: changes, save: { saves.count += 1; saves.onSave?() }, wait: { _ in await gate.wait() },
            onError: { _ in }, onRecovered: { _ in }
        )

        answer.value = "typed"
        await gate.untilWaiting()
        // The interval passes, and in the same turn of the main loop the submit cancels the save.
        gate.open()
        autosave.cancel()

        // A change after the submit is saved once its own wait ends; the
        // cancelled save's turn comes before it, so it has had its chance.
        answer.value = "next"
        await gate.untilWaiting()
        await withCheckedContinuation { (saved: CheckedContinuation<Void, Never>) in
            saves.onSave = { saved.resume() }
            gate.open()
        }
        XCTAssertEqual(saves.count, 1, "only the change after the submit is saved")
        withExtendedLifetime(autosave) {}
    }
}

@MainActor
private final class Saves {
    var count = 0
    var onSave: (() -> Void)?
}

/// A wait that ends when the test opens it.
@MainActor
private final class Gate {
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var watchers: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        await withCheckedContinuation { continuation in
            waiting.append(continuation)
            let watchers = watchers
            self.watchers = []
            watchers.forEach { $0.resume() }
        }
    }

    /// Returns once a wait has begun.
    func untilWaiting() async {
        guard waiting.isEmpty else { return }
        await withCheckedContinuation { watchers.append($0) }
    }

    func open() {
        let waiting = waiting
        self.waiting = []
        waiting.forEach { $0.resume() }
    }
}
