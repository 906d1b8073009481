import Foundation
import SurveyModel
import SurveyStorage
import XCTest

/// A save replaces the draft as a whole: whoever is reading the old one (a
/// restore racing an autosave, a backup tool) reads all of it, never a file
/// emptied or half written in place.
final class DraftStoreAtomicityTests: XCTestCase {
    func testAReaderOfTheOldDraft_seesItWholeWhileANewOneIsSaved() throws {
        let folder = try TemporaryDirectory()
        let drafts = DraftStore(directory: folder.url)
        try drafts.save(SurveyAnswers(name: "first", comments: String(repeating: "old ", count: 5_000)))
        let before = try Data(contentsOf: drafts.url)

        let reader = try FileHandle(forReadingFrom: drafts.url)
        defer { try? reader.close() }
        try drafts.save(SurveyAnswers(name: "second", comments: "new"))

        XCTAssertEqual(try reader.readToEnd(), before, "written in place, the open draft would change under its reader")
        XCTAssertEqual(try drafts.load(), .restored(SurveyAnswers(name: "second", comments: "new"), instanceID: nil))
        XCTAssertEqual(try folder.contents(), [DraftStore.fileName])
    }
}
