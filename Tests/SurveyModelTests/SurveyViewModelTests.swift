import XCTest
import SurveyModel
import TwoWayBinding

final class SurveyViewModelTests: XCTestCase {
    @MainActor private func filledViewModel() -> SurveyViewModel {
        let viewModel = SurveyViewModel()
        viewModel.load(SurveyAnswers(
            name: "Ada", companyName: "Engines", yearsOfExperience: 12,
            isCurrentEmployer: true, approxSalary: 85_000, comments: "Fine"
        ))
        return viewModel
    }

    @MainActor func testDefaults() async {
        let viewModel = SurveyViewModel()
        XCTAssertEqual(viewModel.answers.value, .empty)
        XCTAssertEqual(viewModel.experienceText.value, "--")
        XCTAssertEqual(viewModel.salaryText.value, "--")
        XCTAssertFalse(viewModel.isValid.value, "a blank form has no name")
    }

    @MainActor func testLiveLabels_followAnswers() async {
        let viewModel = SurveyViewModel()
        viewModel.yearsOfExperience.value = 12
        viewModel.approxSalary.value = 85_000
        XCTAssertEqual(viewModel.experienceText.value, "12.0 yrs")
        XCTAssertEqual(viewModel.salaryText.value, "85.0k")
    }

    @MainActor func testSummary_followsEveryAnswer() async {
        let viewModel = filledViewModel()
        XCTAssertEqual(
            viewModel.summary.value,
            "Name: Ada\nCompany: Engines\nExperience: 12.0 yrs\nCurrent Employer?: YES\napprox Salary: 85.0k\nComments: Fine"
        )
        viewModel.isCurrentEmployer.value = false
        XCTAssertTrue(viewModel.summary.value.contains("Current Employer?: NO"))
    }

    @MainActor func testLoad_updatesSummaryOnce() async {
        let viewModel = SurveyViewModel()
        var summaries: [String] = []
        let token = viewModel.summary.observe { summaries.append($0) }
        viewModel.load(SurveyAnswers(name: "Ada", companyName: "E", yearsOfExperience: 1, approxSalary: 1_000))
        XCTAssertEqual(summaries.count, 1)
        _ = token
    }

    @MainActor func testValidation_perFieldAndForm() async {
        let viewModel = SurveyViewModel()
        XCTAssertEqual(viewModel.validation(for: .name).value, .invalid("Name is required."))
        viewModel.name.value = "Ada"
        XCTAssertTrue(viewModel.validation(for: .name).value.isValid)
        XCTAssertTrue(viewModel.isValid.value)
        viewModel.comments.value = String(repeating: "x", count: 5_001)
        XCTAssertFalse(viewModel.isValid.value)
        XCTAssertEqual(viewModel.firstProblem?.field, .comments)
    }

    @MainActor func testInputError_makesFormInvalidUntilFixed() async {
        let viewModel = filledViewModel()
        XCTAssertTrue(viewModel.isValid.value)
        viewModel.inputErrors[.yearsOfExperience]!.value = .invalid("Not a number.")
        XCTAssertFalse(viewModel.isValid.value)
        XCTAssertEqual(viewModel.validation(for: .yearsOfExperience).value.message, "Not a number.")
        viewModel.inputErrors[.yearsOfExperience]!.value = .valid
        XCTAssertTrue(viewModel.isValid.value)
    }

    @MainActor func testIsValid_notifiesOnlyOnChange() async {
        let viewModel = SurveyViewModel()
        var seen: [Bool] = []
        let token = viewModel.isValid.observe { seen.append($0) }
        viewModel.name.value = "A"
        viewModel.name.value = "Ad"
        viewModel.name.value = ""
        XCTAssertEqual(seen, [true, false])
        _ = token
    }

    @MainActor func testMakeResponse_nilWhileInvalid() async {
        let viewModel = SurveyViewModel()
        XCTAssertNil(viewModel.makeResponse())
    }

    @MainActor func testMakeResponse_carriesTrimmedAnswersAndTime() async {
        let viewModel = filledViewModel()
        viewModel.name.value = "  Ada  "
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let response = viewModel.makeResponse(submittedAt: time)
        XCTAssertEqual(response?.answers.name, "Ada")
        XCTAssertEqual(response?.answers.approxSalary, 85_000)
        XCTAssertEqual(response?.submittedAt, time)
        XCTAssertNil(response?.id)
    }

    @MainActor func testSubmit_savesThenResetsFormAndHistory() async {
        let viewModel = filledViewModel()
        var saved: [SurveyResponse] = []
        let response = viewModel.submit { saved.append($0) }
        XCTAssertEqual(response?.answers.name, "Ada")
        XCTAssertEqual(saved.map(\.answers.name), ["Ada"])
        XCTAssertEqual(viewModel.answers.value, .empty)
        XCTAssertFalse(viewModel.history.canUndo.value)
    }

    @MainActor func testInstanceID_isKeptUntilAResponseIsStored_thenNew() async throws {
        struct DiskFull: Error {}
        let viewModel = filledViewModel()
        let started = viewModel.instanceID
        XCTAssertTrue(started.hasPrefix("uuid:"), started)
        XCTAssertThrowsError(try viewModel.submit { _ in throw DiskFull() })
        XCTAssertEqual(viewModel.instanceID, started, "a failed save keeps the response's identity")
        let stored = try XCTUnwrap(viewModel.submit { _ in })
        XCTAssertEqual(stored.instanceID, started)
        XCTAssertNotEqual(viewModel.instanceID, started, "the next respondent's response is another one")
    }

    @MainActor func testResume_submitsAsTheDraftsResponse() async throws {
        let viewModel = filledViewModel()
        viewModel.resume(instanceID: "uuid:from-the-draft")
        XCTAssertEqual(try XCTUnwrap(viewModel.makeResponse()).instanceID, "uuid:from-the-draft")
    }

    @MainActor func testSubmit_invalidSavesNothingAndKeepsEverything() async {
        let viewModel = SurveyViewModel()
        viewModel.companyName.value = "Kept"
        var saves = 0
        XCTAssertNil(viewModel.submit { _ in saves += 1 })
        XCTAssertEqual(saves, 0)
        XCTAssertEqual(viewModel.companyName.value, "Kept")
    }

    @MainActor func testSubmit_failedSaveKeepsEveryAnswer() async {
        struct DiskFull: Error {}
        let viewModel = filledViewModel()
        let before = viewModel.answers.value
        XCTAssertThrowsError(try viewModel.submit { _ in throw DiskFull() })
        XCTAssertEqual(viewModel.answers.value, before)
        XCTAssertTrue(viewModel.history.canUndo.value)
    }

    @MainActor func testReset_backToDefaultsAsOneUndoStep() async {
        let viewModel = filledViewModel()
        viewModel.history.clear()
        viewModel.reset()
        XCTAssertEqual(viewModel.answers.value, .empty)
        XCTAssertEqual(viewModel.history.undoCount, 1)
        viewModel.history.undo()
        XCTAssertEqual(viewModel.name.value, "Ada")
        XCTAssertEqual(viewModel.approxSalary.value, 85_000)
    }

    @MainActor func testReset_clearsInputErrors() async {
        let viewModel = filledViewModel()
        viewModel.inputErrors[.approxSalary]!.value = .invalid("bad")
        viewModel.reset()
        XCTAssertTrue(viewModel.inputErrors[.approxSalary]!.value.isValid)
    }

    @MainActor func testTypingInName_isOneUndoStep() async {
        let viewModel = SurveyViewModel()
        for text in ["A", "Ad", "Ada"] { viewModel.name.value = text }
        viewModel.yearsOfExperience.value = 3
        XCTAssertEqual(viewModel.history.undoCount, 2)
        viewModel.history.undo()
        viewModel.history.undo()
        XCTAssertEqual(viewModel.name.value, "")
        XCTAssertNil(viewModel.yearsOfExperience.value)
    }

    @MainActor func testClearingOptionalAnswer_showsPlaceholderAgain() async {
        let viewModel = filledViewModel()
        viewModel.yearsOfExperience.value = nil
        XCTAssertEqual(viewModel.experienceText.value, "--")
    }

    @MainActor func testResponse_roundTripsThroughCodable() async throws {
        let response = SurveyResponse(
            id: 7, answers: SurveyAnswers(name: "Ada", yearsOfExperience: 1.5), submittedAt: Date(timeIntervalSince1970: 0)
        )
        let data = try JSONEncoder().encode(response)
        XCTAssertEqual(try JSONDecoder().decode(SurveyResponse.self, from: data), response)
    }
}
