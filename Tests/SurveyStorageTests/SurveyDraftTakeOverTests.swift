import Foundation
import SurveyStorage
import XCTest

/// The draft the built-in survey's own window left (`draft.json` in the
/// data folder) becomes the survey form's draft, so that an update loses
/// nothing that was being typed.
final class SurveyDraftTakeOverTests: XCTestCase {
    private let savedAt = Date(timeIntervalSince1970: 1_795_424_400)
    private let startedAt = Date(timeIntervalSince1970: 1_795_423_800)

    /// `draft.json` as the previous release wrote it: sorted keys, ISO 8601
    /// dates, unanswered numbers and unknown ids left out.
    private func writeOldDraft(_ json: String, in folder: TemporaryDirectory) throws -> URL {
        let url = folder.url.appendingPathComponent("draft.json")
        try Data(json.utf8).write(to: url)
        return url
    }

    private let fullDraft = #"""
        {"answers":{"approxSalary":85000,"comments":"Zeile eins\nline two","companyName":"Rechenwerk GmbH",\#
        "isCurrentEmployer":true,"name":"Zoë Fischer","yearsOfExperience":7.5},"instanceID":"uuid:draft",\#
        "savedAt":"2026-11-23T09:00:00Z","startedAt":"2026-11-23T08:50:00Z","version":1}
        """#

    func testTheOldDraft_becomesTheSurveyFormsDraft_withItsIdentityAndStart_andIsRemoved() throws {
        let folder = try TemporaryDirectory()
        let old = try writeOldDraft(fullDraft, in: folder)
        let drafts = FormDraftStore(directory: folder.url)

        XCTAssertNil(try drafts.takeOverSurveyDraft())

        XCTAssertEqual(try drafts.load(formID: "survey_form", version: "1"), .restored(FormDraft(
            formID: "survey_form", formVersion: "1", instanceID: "uuid:draft", startedAt: startedAt, savedAt: savedAt,
            answers: FormResponse.surveyAnswers(name: "Zoë Fischer", company: "Rechenwerk GmbH", years: "7.5",
                                                isCurrentEmployer: true, salary: "85000", comments: "Zeile eins\nline two")
        )))
        XCTAssertFalse(FileManager.default.fileExists(atPath: old.path), "taken over once, then gone")
        XCTAssertNil(try drafts.takeOverSurveyDraft(), "nothing left to take over")
    }

    func testLoadingTheSurveysDraft_takesTheOldOneOverFirst_andNoOtherFormsDraftDoes() throws {
        let folder = try TemporaryDirectory()
        let old = try writeOldDraft(fullDraft, in: folder)
        let drafts = FormDraftStore(directory: folder.url)

        XCTAssertEqual(try drafts.load(formID: "household", version: "1"), .none)
        XCTAssertTrue(FileManager.default.fileExists(atPath: old.path), "another form's window leaves it be")
        guard case .restored(let draft) = try drafts.load(formID: "survey_form", version: "1") else {
            return XCTFail("the survey's window finds its old draft")
        }
        XCTAssertEqual(draft.instanceID, "uuid:draft")
        XCTAssertFalse(FileManager.default.fileExists(atPath: old.path))

        try Data("{\"version\": 1, \"answers\": {\"name\": \"half".utf8).write(to: old)
        guard case .setAside(let file) = try drafts.load(formID: "survey_form", version: "1") else {
            return XCTFail("a damaged old draft is set aside and said so")
        }
        XCTAssertTrue(file.movedTo.lastPathComponent.hasPrefix("draft.json.corrupt-"), file.movedTo.path)
    }

    func testADraftFromBeforeInstanceIDsAndStartTimes_getsAnIDAndStartsWhenItWasSaved() throws {
        let folder = try TemporaryDirectory()
        _ = try writeOldDraft(#"""
            {"answers":{"comments":"","companyName":"","isCurrentEmployer":false,"name":"Bo"},\#
            "savedAt":"2026-11-23T09:00:00Z","version":1}
            """#, in: folder)
        let drafts = FormDraftStore(directory: folder.url)

        XCTAssertNil(try drafts.takeOverSurveyDraft())

        guard case .restored(let draft) = try drafts.load(formID: "survey_form", version: "1") else {
            return XCTFail("expected the survey form's draft")
        }
        XCTAssertTrue(draft.instanceID.hasPrefix("uuid:"), draft.instanceID)
        XCTAssertEqual(draft.startedAt, savedAt)
        XCTAssertEqual(draft.answers, FormResponse.surveyAnswers(name: "Bo"), "unanswered numbers stay blank, typed")
    }

    func testAnExistingSurveyFormDraft_isNotOverwritten_andTheOldOneIsStillRemoved() throws {
        let folder = try TemporaryDirectory()
        let old = try writeOldDraft(fullDraft, in: folder)
        let drafts = FormDraftStore(directory: folder.url)
        let newer = FormDraft(formID: "survey_form", formVersion: "1", instanceID: "uuid:newer", startedAt: savedAt,
                              savedAt: savedAt + 60, answers: FormResponse.surveyAnswers(name: "typed since"))
        try drafts.save(newer)

        XCTAssertNil(try drafts.takeOverSurveyDraft())

        XCTAssertEqual(try drafts.load(formID: "survey_form", version: "1"), .restored(newer))
        XCTAssertFalse(FileManager.default.fileExists(atPath: old.path))
    }

    func testADamagedOrNewerOldDraft_isSetAsideAndReturned_neverTakenOver() throws {
        for text in [#"{"version":1,"answers":{"na"#, fullDraft.replacingOccurrences(of: "\"version\":1", with: "\"version\":2")] {
            let folder = try TemporaryDirectory()
            let old = try writeOldDraft(text, in: folder)
            let drafts = FormDraftStore(directory: folder.url)

            let setAside = try XCTUnwrap(try drafts.takeOverSurveyDraft(), text)

            XCTAssertEqual(setAside.original.lastPathComponent, old.lastPathComponent)
            XCTAssertEqual(try String(contentsOf: setAside.movedTo, encoding: .utf8), text, "kept as it was")
            XCTAssertFalse(FileManager.default.fileExists(atPath: old.path))
            XCTAssertEqual(try drafts.load(formID: "survey_form", version: "1"), .none)
        }
    }

    func testNoOldDraft_changesNothing() throws {
        let folder = try TemporaryDirectory()
        XCTAssertNil(try FormDraftStore(directory: folder.url).takeOverSurveyDraft())
        XCTAssertEqual(try folder.contents(), [])
    }
}
