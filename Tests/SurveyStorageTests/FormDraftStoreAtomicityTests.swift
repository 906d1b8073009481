import Foundation
import SurveyStorage
import XCTest

/// A save replaces the draft as a whole: whoever is reading the old one (a
/// restore racing an autosave, a backup tool) reads all of it, never a file
/// emptied or half written in place.
final class FormDraftStoreAtomicityTests: XCTestCase {
    private func draft(_ name: String, comments: String) -> FormDraft {
        FormDraft(formID: "survey_form", formVersion: "1", instanceID: "uuid:atomic",
                  startedAt: Date(timeIntervalSince1970: 1_700_000_000), savedAt: Date(timeIntervalSince1970: 1_700_000_100),
                  answers: FormResponse.surveyAnswers(name: name, comments: comments))
    }

    func testAReaderOfTheOldDraft_seesItWholeWhileANewOneIsSaved() throws {
        let folder = try TemporaryDirectory()
        let drafts = FormDraftStore(directory: folder.url)
        let url = drafts.url(formID: "survey_form", version: "1")
        try drafts.save(draft("first", comments: String(repeating: "old ", count: 5_000)))
        let before = try Data(contentsOf: url)

        let reader = try FileHandle(forReadingFrom: url)
        defer { try? reader.close() }
        try drafts.save(draft("second", comments: "new"))

        XCTAssertEqual(try reader.readToEnd(), before, "written in place, the open draft would change under its reader")
        XCTAssertEqual(try drafts.load(formID: "survey_form", version: "1"), .restored(draft("second", comments: "new")))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: drafts.folder.path), [url.lastPathComponent],
                       "no temporary file is left behind")
    }
}
