import FormEngine
import Foundation
import TwoWayBinding
import XCTest

/// `FormViewModel.history`: every answer the respondent gives is undone and
/// redone question by question, inside repeats too; nothing computed or
/// restored is an edit.
final class FormHistoryTests: XCTestCase {
    @MainActor
    private func model() throws -> FormViewModel {
        try FormViewModel(definition: FormFixtures.definition("""
            | survey |
            | | type | name | label | calculation |
            | | text | name | Name | |
            | | select_one yn | adult | Adult? | |
            | | calculate | shout | | concat(${name}, '!') |
            | | begin repeat | child | Child | |
            | | text | who | Who | |
            | | end repeat | | | |
            | choices |
            | | list_name | name | label |
            | | yn | yes | Yes |
            | | yn | no | No |
            """))
    }

    @MainActor func testTypingIsOneStepPerQuestionAndAChoiceIsAStep() async throws {
        let form = try model()
        let name = try XCTUnwrap(form.state(named: "name")), adult = try XCTUnwrap(form.state(named: "adult"))
        XCTAssertFalse(form.history.canUndo.value, "a blank response has nothing to undo")
        for typed in ["A", "Ad", "Ada"] { name.value.value = typed }
        adult.value.value = "yes"
        adult.value.value = "no"

        form.history.undo()
        XCTAssertEqual(adult.value.value, "yes")
        form.history.undo()
        XCTAssertEqual(adult.value.value, "")
        XCTAssertEqual(name.value.value, "Ada")
        form.history.undo()
        XCTAssertEqual(name.value.value, "", "the typing went as one step")
        XCTAssertEqual(try XCTUnwrap(form.state(named: "shout")).value.value, "!", "the calculation follows, unrecorded")
        XCTAssertFalse(form.history.canUndo.value)

        form.history.redo()
        XCTAssertEqual(name.value.value, "Ada")
        XCTAssertEqual(try XCTUnwrap(form.state(named: "shout")).value.value, "Ada!")
    }

    @MainActor func testAnswersInsideARepeatAreUndoneToo() async throws {
        let form = try model()
        let child = try XCTUnwrap(form.state(named: "child")?.repeatState)
        let second = try XCTUnwrap(child.add())
        let who = try XCTUnwrap(second.state(named: "who"))
        who.value.value = "Byron"
        form.history.undo()
        XCTAssertEqual(who.value.value, "")
        form.history.redo()
        XCTAssertEqual(who.value.value, "Byron")
    }

    @MainActor func testARestoredOrNewResponseStartsWithNothingToUndo() async throws {
        let form = try model()
        try XCTUnwrap(form.state(named: "name")).value.value = "Ada"
        XCTAssertTrue(form.history.canUndo.value)
        form.restore([(path: "name", value: "Grace")])
        XCTAssertFalse(form.history.canUndo.value, "a draft's answers are no edits")

        try XCTUnwrap(form.state(named: "name")).value.value = "Grace Hopper"
        form.reset()
        XCTAssertFalse(form.history.canUndo.value, "a new response starts clean")
        let name = try XCTUnwrap(form.state(named: "name"))
        name.value.value = "Edsger"
        form.history.undo()
        XCTAssertEqual(name.value.value, "", "the new response's questions are tracked")
    }
}
