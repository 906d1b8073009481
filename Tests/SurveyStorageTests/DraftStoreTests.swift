import XCTest
import SurveyModel
import SurveyStorage

final class DraftStoreTests: XCTestCase {
    private let answers = SurveyAnswers(
        name: "Ada", companyName: "Engines", yearsOfExperience: 3.5,
        isCurrentEmployer: true, approxSalary: 120_000, comments: "ünïcødé ✓"
    )

    func testNoDraft_loadsNone() throws {
        let folder = try TemporaryDirectory()
        XCTAssertEqual(try DraftStore(directory: folder.url).load(), .none)
    }

    func testSaveThenLoad_restoresAnswers() throws {
        let folder = try TemporaryDirectory()
        let drafts = DraftStore(directory: folder.url)
        try drafts.save(answers)
        XCTAssertEqual(try DraftStore(directory: folder.url).load(), .restored(answers, instanceID: nil))
    }

    func testADraftKeepsItsResponsesIdentityAndStart() throws {
        let folder = try TemporaryDirectory()
        let started = Date(timeIntervalSince1970: 1_795_424_400)
        try DraftStore(directory: folder.url).save(answers, instanceID: "uuid:42", startedAt: started)
        XCTAssertEqual(try DraftStore(directory: folder.url).load(),
                       .restored(answers, instanceID: "uuid:42", startedAt: started))
    }

    func testSave_replacesPreviousDraftWithoutLeftovers() throws {
        let folder = try TemporaryDirectory()
        let drafts = DraftStore(directory: folder.url)
        try drafts.save(SurveyAnswers(name: "first"))
        try drafts.save(answers)
        XCTAssertEqual(try drafts.load(), .restored(answers, instanceID: nil))
        XCTAssertEqual(try folder.contents(), [DraftStore.fileName], "no temporary file is left behind")
    }

    func testDiscard_removesDraftAndToleratesNone() throws {
        let folder = try TemporaryDirectory()
        let drafts = DraftStore(directory: folder.url)
        try drafts.save(answers)
        try drafts.discard()
        XCTAssertEqual(try drafts.load(), .none)
        XCTAssertNoThrow(try drafts.discard())
    }

    func testCorruptDraft_isMovedAsideNotDeleted() throws {
        let folder = try TemporaryDirectory()
        let drafts = DraftStore(directory: folder.url)
        try Data("{\"version\":1,\"answers\":{\"na".utf8).write(to: drafts.url)
        guard case .setAside(let moved) = try drafts.load() else { return XCTFail("expected the draft set aside") }
        XCTAssertEqual(try String(contentsOf: moved.movedTo, encoding: .utf8), "{\"version\":1,\"answers\":{\"na")
        XCTAssertFalse(FileManager.default.fileExists(atPath: drafts.url.path))
        XCTAssertEqual(try drafts.load(), .none)
    }

    func testADraftPastItsSizeIsSetAsideUnread() throws {
        let folder = try TemporaryDirectory()
        let drafts = DraftStore(directory: folder.url)
        // A draft that would read well, padded with 129 MB of spaces (JSON
        // allows them): only its size refuses it.
        try drafts.save(answers)
        let handle = try FileHandle(forWritingTo: drafts.url)
        try handle.seekToEnd()
        let spaces = Data(repeating: UInt8(ascii: " "), count: 1 << 20)
        for _ in 0..<129 { try handle.write(contentsOf: spaces) }
        try handle.close()
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: drafts.url.path)[.size] as? Int)
        guard case .setAside(let moved) = try drafts.load() else { return XCTFail("expected the draft set aside") }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: moved.movedTo.path)[.size] as? Int, size,
                       "kept whole, not deleted")
    }

    func testADraftThatIsAPipeIsSetAsideNotWaitedOn() throws {
        let folder = try TemporaryDirectory()
        let drafts = DraftStore(directory: folder.url)
        XCTAssertEqual(mkfifo(drafts.url.path, 0o600), 0)
        guard case .setAside = try drafts.load() else { return XCTFail("expected the pipe set aside") }
        XCTAssertEqual(try drafts.load(), .none)
    }

    func testDraftFromNewerVersion_isSetAside() throws {
        let folder = try TemporaryDirectory()
        let drafts = DraftStore(directory: folder.url)
        try drafts.save(answers)
        var text = try String(contentsOf: drafts.url, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"version\":1", with: "\"version\":99")
        try Data(text.utf8).write(to: drafts.url)
        guard case .setAside = try drafts.load() else { return XCTFail("a newer draft is kept aside, not misread") }
    }

    func testSaveIntoUnwritablePlace_reportsError() throws {
        let folder = try TemporaryDirectory()
        // A file where the data folder should be: no permission trick needed.
        let blocker = folder.url.appendingPathComponent("blocked")
        try Data().write(to: blocker)
        let drafts = DraftStore(directory: blocker.appendingPathComponent("inner"))
        XCTAssertThrowsError(try drafts.save(answers)) { error in
            XCTAssertTrue((error as? StorageError)?.message.hasPrefix("The draft was not saved") == true)
        }
    }
}
