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

    @MainActor func testSubmit_storesThenResetsFormAndHistory() async throws {
        let viewModel = filledViewModel()
        var stored: [SurveyResponse] = []
        let response = try await viewModel.submit { response in
            stored.append(response)
            return response
        }
        XCTAssertEqual(response?.answers.name, "Ada")
        XCTAssertEqual(stored.map(\.answers.name), ["Ada"])
        XCTAssertEqual(viewModel.answers.value, .empty)
        XCTAssertFalse(viewModel.history.canUndo.value)
    }

    @MainActor func testSubmit_returnsWhatTheStoreReturns_theStoredResponseWithItsID() async throws {
        let viewModel = filledViewModel()
        let response = try await viewModel.submit { response in
            var stored = response
            stored.id = 41
            return stored
        }
        XCTAssertEqual(response?.id, 41)
    }

    /// The answers stay in the form while the store waits for the disk, and
    /// a second submit meanwhile stores nothing.
    @MainActor func testSubmit_whileStoring_keepsTheAnswersAndRefusesASecondSubmit() async throws {
        let viewModel = filledViewModel()
        let (release, released) = AsyncStream<Void>.makeStream()
        var stores = 0
        let first = Task { @MainActor in
            try await viewModel.submit { response in
                stores += 1
                for await _ in release { break }
                return response
            }
        }
        while !viewModel.isStoring { await Task.yield() }
        XCTAssertEqual(viewModel.name.value, "Ada", "nothing is cleared before the store confirms")
        let second = try await viewModel.submit { $0 }
        XCTAssertNil(second)
        released.yield()
        let stored = try await first.value
        XCTAssertEqual(stored?.answers.name, "Ada")
        XCTAssertEqual(stores, 1)
        XCTAssertFalse(viewModel.isStoring)
        XCTAssertEqual(viewModel.answers.value, .empty)
    }

    @MainActor func testInstanceID_isKeptUntilAResponseIsStored_thenNew() async throws {
        struct DiskFull: Error {}
        let viewModel = filledViewModel()
        let started = viewModel.instanceID
        XCTAssertTrue(started.hasPrefix("uuid:"), started)
        do {
            _ = try await viewModel.submit { _ in throw DiskFull() }
            XCTFail("the store's error reaches the caller")
        } catch {}
        XCTAssertEqual(viewModel.instanceID, started, "a failed save keeps the response's identity")
        let stored = try await viewModel.submit { $0 }
        XCTAssertEqual(stored?.instanceID, started)
        XCTAssertNotEqual(viewModel.instanceID, started, "the next respondent's response is another one")
    }

    @MainActor func testAResponseCarriesItsStartAndTheSurveysVersion_aDraftKeepsItsStart() async throws {
        let before = Date()
        let viewModel = filledViewModel()
        let response = try XCTUnwrap(viewModel.makeResponse())
        XCTAssertEqual(response.startedAt, viewModel.startedAt)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(response.startedAt), before.addingTimeInterval(-1))
        XCTAssertEqual(response.formVersion, BuiltInSurvey.definition.settings.version)
        XCTAssertNotNil(response.formVersion)

        let draftStart = Date(timeIntervalSince1970: 1_795_000_000)
        viewModel.restore(SurveyAnswers(name: "Ada", yearsOfExperience: 1, approxSalary: 1_000),
                          instanceID: "uuid:draft", startedAt: draftStart)
        let stored = try await viewModel.submit { $0 }
        XCTAssertEqual(stored?.startedAt, draftStart, "a restored draft was started when it was")
        XCTAssertGreaterThan(viewModel.startedAt, draftStart, "the next response starts now")
    }

    @MainActor func testRestore_submitsAsTheDraftsResponse_untouched_withNoHistory() async throws {
        let viewModel = SurveyViewModel()
        viewModel.restore(SurveyAnswers(name: "Ada", yearsOfExperience: 1, approxSalary: 1_000), instanceID: "uuid:from-the-draft")
        XCTAssertEqual(try XCTUnwrap(viewModel.makeResponse()).instanceID, "uuid:from-the-draft")
        XCTAssertEqual(viewModel.touched.value, [])
        XCTAssertFalse(viewModel.history.canUndo.value)
    }

    @MainActor func testSubmit_invalidSavesNothingAndKeepsEverything() async throws {
        let viewModel = SurveyViewModel()
        viewModel.companyName.value = "Kept"
        var saves = 0
        let response = try await viewModel.submit { saves += 1; return $0 }
        XCTAssertNil(response)
        XCTAssertEqual(saves, 0)
        XCTAssertEqual(viewModel.companyName.value, "Kept")
    }

    @MainActor func testSubmit_failedSaveKeepsEveryAnswer() async {
        struct DiskFull: Error {}
        let viewModel = filledViewModel()
        let before = viewModel.answers.value
        do {
            _ = try await viewModel.submit { _ in throw DiskFull() }
            XCTFail("the store's error reaches the caller")
        } catch {}
        XCTAssertEqual(viewModel.answers.value, before)
        XCTAssertTrue(viewModel.history.canUndo.value)
        XCTAssertFalse(viewModel.isStoring)
    }

    /// Only the user's edits touch a field and count as edits; a draft
    /// restored or a form cleared after a submit touches none.
    @MainActor func testTouched_byTheUsersEditsOnly() async throws {
        let viewModel = SurveyViewModel()
        var edits = 0
        let token = viewModel.observeEdits { edits += 1 }
        defer { token.cancel() }
        viewModel.restore(SurveyAnswers(comments: "from the draft"), instanceID: nil)
        XCTAssertEqual(viewModel.touched.value, [])
        XCTAssertEqual(edits, 0)
        XCTAssertFalse(viewModel.validation(for: .name).value.isValid, "a name is required")
        XCTAssertEqual(viewModel.shownValidation(for: .name).value, .valid, "untouched: no message yet")
        viewModel.name.value = "Ad"
        viewModel.name.value = ""
        XCTAssertEqual(viewModel.touched.value, [.name])
        XCTAssertEqual(edits, 2)
        XCTAssertFalse(viewModel.shownValidation(for: .name).value.isValid, "touched: the rule's message shows")
        viewModel.comments.value = "more"
        XCTAssertEqual(edits, 3)
        viewModel.history.undo()
        XCTAssertEqual(viewModel.comments.value, "from the draft")
        XCTAssertEqual(edits, 4, "an undo is the user's edit")
        viewModel.revealProblems()
        XCTAssertEqual(viewModel.touched.value, Set(SurveyField.allCases))
        viewModel.reset()
        XCTAssertEqual(viewModel.touched.value, [])
        XCTAssertEqual(edits, 4)
    }

    @MainActor func testTouched_aRefusedInputIsShownAtOnce() async throws {
        let viewModel = SurveyViewModel()
        viewModel.inputErrors[.yearsOfExperience]!.value = .invalid("not a number")
        XCTAssertEqual(viewModel.touched.value, [.yearsOfExperience])
    }

    @MainActor func testReset_backToDefaultsAsOneUndoStep() async {
        let viewModel = filledViewModel()
        viewModel.history.clear()
        viewModel.reset()
        XCTAssertEqual(viewModel.answers.value, .empty)
        XCTAssertEqual(viewModel.history._undoCount, 1)
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
        XCTAssertEqual(viewModel.history._undoCount, 2)
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
