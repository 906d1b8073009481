import XCTest
import SurveyStorage

final class FormDraftStoreTests: XCTestCase {
    private func draft(_ id: String = "visit", version: String = "2024-01", savedAt: Date = Date(timeIntervalSince1970: 1_700_000_000)) -> FormDraft {
        FormDraft(
            formID: id, formVersion: version, instanceID: "uuid:\(id)-\(version)",
            startedAt: Date(timeIntervalSince1970: 1_699_999_000), savedAt: savedAt,
            answers: [.init(path: "who/name", value: "Zoë ✓"), .init(path: "member[2]/age", value: "7")]
        )
    }

    func testEachFormAndVersionHasItsOwnDraft() throws {
        let folder = try TemporaryDirectory()
        let drafts = FormDraftStore(directory: folder.url)
        XCTAssertEqual(try drafts.load(formID: "visit", version: "2024-01"), .none)
        try drafts.save(draft())
        try drafts.save(draft(version: "2024-02"))
        try drafts.save(draft("other"))
        XCTAssertEqual(try drafts.load(formID: "visit", version: "2024-01"), .restored(draft()))
        XCTAssertEqual(try FormDraftStore(directory: folder.url).load(formID: "visit", version: "2024-02"), .restored(draft(version: "2024-02")))
        try drafts.discard(formID: "visit", version: "2024-01")
        XCTAssertEqual(try drafts.load(formID: "visit", version: "2024-01"), .none)
        XCTAssertEqual(try drafts.load(formID: "other", version: "2024-01"), .restored(draft("other")))
        XCTAssertNoThrow(try drafts.discard(formID: "visit", version: "2024-01"), "no draft is not an error")
    }

    func testDraftsOfOtherVersions_newestFirst_andNotOtherForms() throws {
        let folder = try TemporaryDirectory()
        let drafts = FormDraftStore(directory: folder.url)
        try drafts.save(draft(version: "1", savedAt: Date(timeIntervalSince1970: 100)))
        try drafts.save(draft(version: "2", savedAt: Date(timeIntervalSince1970: 300)))
        try drafts.save(draft(version: "3", savedAt: Date(timeIntervalSince1970: 200)))
        try drafts.save(draft("visit-extra", version: "9"))
        try drafts.save(draft("visit@1", version: "9"))
        XCTAssertEqual(drafts.drafts(of: "visit", otherThan: "3").map(\.formVersion), ["2", "1"])
        XCTAssertEqual(drafts.drafts(of: "visit", otherThan: "4").map(\.formVersion), ["2", "3", "1"])
        XCTAssertEqual(drafts.drafts(of: "nothing", otherThan: "1"), [])
    }

    func testHostileIDsStayInTheFolderAndApart() throws {
        let folder = try TemporaryDirectory()
        let drafts = FormDraftStore(directory: folder.url)
        for id in ["../../escape", "/etc/passwd", ".", "..", "", "a/b", "a%2Fb", "a@b"] {
            try drafts.save(draft(id, version: id))
            XCTAssertEqual(drafts.url(formID: id, version: id).deletingLastPathComponent().standardized.path, drafts.folder.standardized.path, id)
        }
        for id in ["../../escape", "/etc/passwd", ".", "..", "", "a/b", "a%2Fb", "a@b"] {
            XCTAssertEqual(try drafts.load(formID: id, version: id), .restored(draft(id, version: id)), "\(id) is read back as itself")
        }
        XCTAssertEqual(try folder.contents(), ["form-drafts"], "nothing lands outside the drafts' folder")
    }

    func testLongIDsAndVersionsStillKeepADraft_apartFromEachOther() throws {
        let folder = try TemporaryDirectory()
        let drafts = FormDraftStore(directory: folder.url)
        let long = String(repeating: "ä", count: 300)
        let ids = [long, long + "b", String(repeating: "x", count: 1_000), "short"]
        for id in ids {
            try drafts.save(draft(id, version: long))
            XCTAssertLessThanOrEqual(drafts.url(formID: id, version: long).lastPathComponent.utf8.count, 255)
        }
        for id in ids {
            XCTAssertEqual(try drafts.load(formID: id, version: long), .restored(draft(id, version: long)), "\(id.prefix(8)) read back as itself")
        }
        XCTAssertEqual(drafts.drafts(of: long, otherThan: "1").map(\.formID), [long], "other versions found by the shortened id")
        try drafts.discard(formID: long, version: long)
        XCTAssertEqual(try drafts.load(formID: long, version: long), .none)
    }

    func testADraftSavedUnderAnEarlierReleasesLongName_isStillRead() throws {
        let folder = try TemporaryDirectory()
        let drafts = FormDraftStore(directory: folder.url)
        let id = String(repeating: "x", count: 200)
        try drafts.save(draft(id, version: "1"))
        // Where a release that did not shorten names kept it.
        let earlier = drafts.folder.appendingPathComponent("\(id)@1.json")
        XCTAssertNotEqual(drafts.url(formID: id, version: "1"), earlier)
        try FileManager.default.moveItem(at: drafts.url(formID: id, version: "1"), to: earlier)
        XCTAssertEqual(try drafts.load(formID: id, version: "1"), .restored(draft(id, version: "1")))
        try drafts.discard(formID: id, version: "1")
        XCTAssertFalse(FileManager.default.fileExists(atPath: earlier.path), "a submit removes it too")
    }

    func testDraftsArePrivate() throws {
        let folder = try TemporaryDirectory()
        let drafts = FormDraftStore(directory: folder.url)
        try drafts.save(draft())
        let fileMode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: drafts.url(formID: "visit", version: "2024-01").path)[.posixPermissions] as? Int)
        let folderMode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: drafts.folder.path)[.posixPermissions] as? Int)
        XCTAssertEqual(fileMode & 0o777, 0o600)
        XCTAssertEqual(folderMode & 0o777, 0o700)
    }

    func testDamagedOrNewerDrafts_areSetAsideNotDeleted() throws {
        let folder = try TemporaryDirectory()
        let drafts = FormDraftStore(directory: folder.url)
        let url = drafts.url(formID: "visit", version: "2024-01")
        try drafts.save(draft())
        try Data("{\"version\":1,\"draft\":{\"form".utf8).write(to: url)
        guard case .setAside(let moved) = try drafts.load(formID: "visit", version: "2024-01") else {
            return XCTFail("a damaged draft is set aside")
        }
        XCTAssertEqual(try String(contentsOf: moved.movedTo, encoding: .utf8), "{\"version\":1,\"draft\":{\"form")

        try drafts.save(draft())
        let newer = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\"version\":1", with: "\"version\":2")
        try Data(newer.utf8).write(to: url)
        guard case .setAside = try drafts.load(formID: "visit", version: "2024-01") else {
            return XCTFail("a newer version's draft is kept aside, not misread")
        }
        XCTAssertEqual(try drafts.load(formID: "visit", version: "2024-01"), .none)
    }

    func testADraftPastItsSizeIsSetAsideUnread() throws {
        let folder = try TemporaryDirectory()
        let drafts = FormDraftStore(directory: folder.url)
        let url = drafts.url(formID: "visit", version: "2024-01")
        // A draft that would read well, padded with 129 MB of spaces (JSON
        // allows them): only its size refuses it.
        try drafts.save(draft())
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        let spaces = Data(repeating: UInt8(ascii: " "), count: 1 << 20)
        for _ in 0..<129 { try handle.write(contentsOf: spaces) }
        try handle.close()
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        guard case .setAside(let moved) = try drafts.load(formID: "visit", version: "2024-01") else {
            return XCTFail("expected the draft set aside")
        }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: moved.movedTo.path)[.size] as? Int, size,
                       "kept whole, not deleted")
    }

    func testADraftThatIsAPipeIsSetAsideNotWaitedOn() throws {
        let folder = try TemporaryDirectory()
        let drafts = FormDraftStore(directory: folder.url)
        try FileManager.default.createDirectory(at: drafts.folder, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(drafts.url(formID: "visit", version: "2024-01").path, 0o600), 0)
        guard case .setAside = try drafts.load(formID: "visit", version: "2024-01") else {
            return XCTFail("expected the pipe set aside")
        }
        XCTAssertEqual(try drafts.load(formID: "visit", version: "2024-01"), .none)
    }

    func testSave_replacesThePreviousDraftWithoutLeftovers() throws {
        let folder = try TemporaryDirectory()
        let drafts = FormDraftStore(directory: folder.url)
        var first = draft()
        first.answers = [.init(path: "who/name", value: "first")]
        try drafts.save(first)
        try drafts.save(draft())
        XCTAssertEqual(try drafts.load(formID: "visit", version: "2024-01"), .restored(draft()))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: drafts.folder.path),
                       [drafts.url(formID: "visit", version: "2024-01").lastPathComponent], "no temporary file is left behind")
    }

    func testSaveIntoAnUnwritablePlace_reportsError() throws {
        let folder = try TemporaryDirectory()
        // A file where the data folder should be: no permission trick needed.
        let blocker = folder.url.appendingPathComponent("blocked")
        try Data().write(to: blocker)
        let drafts = FormDraftStore(directory: blocker.appendingPathComponent("inner"))
        XCTAssertThrowsError(try drafts.save(draft())) { error in
            XCTAssertTrue((error as? StorageError)?.message.hasPrefix("The draft was not saved") == true, "\(error)")
        }
    }
}
