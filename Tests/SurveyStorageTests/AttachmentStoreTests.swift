import FormEngine
import Foundation
import SurveyStorage
import XCTest

/// The files answers name: copied whole into the response's own private
/// folder under Collect's names, kept while a response or draft names
/// them, removed once nothing does.
final class AttachmentStoreTests: XCTestCase {
    private func write(_ text: String, named name: String, in folder: TemporaryDirectory) throws -> URL {
        let url = folder.url.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    private func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func testAFileIsCopiedWhole_underANewNameEndingInItsExtension_readableByItsOwnerOnly() throws {
        let folder = try TemporaryDirectory()
        let source = try write(String(repeating: "field notes\n", count: 200_000), named: "Notes Final.TXT", in: folder)
        let store = AttachmentStore(directory: folder.url.appendingPathComponent("data"))

        let name = try store.add(copying: source, fileExtension: "TXT", instanceID: "uuid:a/b")
        XCTAssertTrue(name.wholeMatch(of: /\d{13,}\.txt/) != nil, name)
        let stored = try XCTUnwrap(store.url(of: name, instanceID: "uuid:a/b"))
        XCTAssertEqual(try Data(contentsOf: stored), try Data(contentsOf: source), "2.4 MB copied piece by piece, whole")
        XCTAssertEqual(try mode(stored), 0o600)
        XCTAssertEqual(try mode(store.folder), 0o700)
        XCTAssertEqual(try mode(store.folder(forInstance: "uuid:a/b")), 0o700)
        XCTAssertEqual(stored.deletingLastPathComponent().deletingLastPathComponent(), store.folder,
                       "an instance id's slash makes no folder of its own")

        let second = try store.add(Data("again".utf8), fileExtension: "txt", instanceID: "uuid:a/b")
        XCTAssertNotEqual(second, name, "names are never reused, even within a millisecond")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.folder(forInstance: "uuid:a/b").path).count, 2,
                       "no temporary file is left beside them")
    }

    func testAnAnswerIsNeverTakenAsAPath() throws {
        let store = AttachmentStore(directory: URL(fileURLWithPath: "/tmp/data"))
        XCTAssertNil(store.url(of: "../responses.sqlite3", instanceID: "uuid:1"))
        XCTAssertNil(store.url(of: "..", instanceID: "uuid:1"))
        XCTAssertNil(store.url(of: "", instanceID: "uuid:1"))
        XCTAssertNotNil(store.url(of: "1700000000000.jpg", instanceID: "uuid:1"))
    }

    func testAMissingSourceIsAClearError_andLeavesNothing() throws {
        let folder = try TemporaryDirectory()
        let store = AttachmentStore(directory: folder.url)
        XCTAssertThrowsError(try store.add(copying: folder.url.appendingPathComponent("gone.jpg"), fileExtension: "jpg", instanceID: "uuid:1")) {
            XCTAssertTrue($0.localizedDescription.contains("gone.jpg cannot be read"), $0.localizedDescription)
        }
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: store.folder.path)) ?? [], [])
    }

    func testKeepOnly_removesTheFilesAResponseNoLongerNames() throws {
        let folder = try TemporaryDirectory()
        let store = AttachmentStore(directory: folder.url)
        let kept = try store.add(Data("kept".utf8), fileExtension: "jpg", instanceID: "uuid:1")
        let replaced = try store.add(Data("replaced".utf8), fileExtension: "jpg", instanceID: "uuid:1")
        try store.keepOnly([kept], instanceID: "uuid:1")
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.url(of: kept, instanceID: "uuid:1")!.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.url(of: replaced, instanceID: "uuid:1")!.path))
        try store.keepOnly([], instanceID: "uuid:1")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.folder(forInstance: "uuid:1").path), "an empty folder goes too")
    }

    func testStartingTheApp_removesTheFilesOfResponsesNeitherStoredNorDrafted() throws {
        let folder = try TemporaryDirectory()
        let store = AttachmentStore(directory: folder.url)
        let database = try ResponseStore(directory: folder.url)
        try database.insert(FormResponse(
            formID: "f", formVersion: "1", instanceID: "uuid:stored", startedAt: Date(), submittedAt: Date(),
            answers: [FormResponse.Answer(path: "photo", value: "1.jpg", kind: .attachment)]
        ))
        try FormDraftStore(directory: folder.url).save(FormDraft(
            formID: "f", formVersion: "1", instanceID: "uuid:drafted", startedAt: Date(), answers: []
        ))
        for instance in ["uuid:stored", "uuid:drafted", "uuid:deleted"] {
            _ = try store.add(Data(instance.utf8), fileExtension: "jpg", instanceID: instance)
        }

        _ = try ResponseStore.Opening(directory: folder.url).store()
        let left = try FileManager.default.contentsOfDirectory(atPath: store.folder.path).sorted()
        XCTAssertEqual(left, ["uuid:drafted", "uuid:stored"].map { store.folder(forInstance: $0).lastPathComponent }.sorted())
    }

    func testADamagedDraft_keepsEveryFile() throws {
        let folder = try TemporaryDirectory()
        let store = AttachmentStore(directory: folder.url)
        _ = try ResponseStore(directory: folder.url)
        let drafts = FormDraftStore(directory: folder.url)
        try FileManager.default.createDirectory(at: drafts.folder, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: drafts.folder.appendingPathComponent("f@1.json"))
        _ = try store.add(Data("x".utf8), fileExtension: "jpg", instanceID: "uuid:whose")

        _ = try ResponseStore.Opening(directory: folder.url).store()
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.folder(forInstance: "uuid:whose").path),
                      "the damaged draft may name it")
    }

    func testAnAttachmentAnswerKeepsItsKind_throughTheDatabase() throws {
        let folder = try TemporaryDirectory()
        let database = try ResponseStore(directory: folder.url)
        try database.insert(FormResponse(
            formID: "f", formVersion: "1", instanceID: "uuid:1", startedAt: Date(), submittedAt: Date(),
            answers: [
                FormResponse.Answer(path: "photo", value: "1700000000000.jpg", kind: .attachment),
                FormResponse.Answer(path: "scan", value: "", kind: .attachment),
                FormResponse.Answer(path: "name", value: "Ada"),
            ]
        ))
        let stored = try XCTUnwrap(database.responses(toForm: "f").first)
        XCTAssertEqual(stored.answers.map(\.kind), [.attachment, .attachment, nil])
        XCTAssertEqual(stored.attachmentNames, ["1700000000000.jpg"])
        XCTAssertEqual(AnswersJSON.text(of: stored.answers), #"{"photo":"1700000000000.jpg","scan":"","name":"Ada"}"#)
    }

    func testCopyForAnExport_namesTheFilesThatAreMissing() throws {
        let folder = try TemporaryDirectory()
        let store = AttachmentStore(directory: folder.url.appendingPathComponent("data"))
        let name = try store.add(Data("photo".utf8), fileExtension: "jpg", instanceID: "uuid:1")
        let target = folder.url.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let missing = try store.copy([name, "1.jpg"], instanceID: "uuid:1", to: target)
        XCTAssertEqual(missing, ["1.jpg"])
        XCTAssertEqual(try String(contentsOf: target.appendingPathComponent(name), encoding: .utf8), "photo")
    }

    func testAnEditCarriesCopiesOfTheFilesOfTheRevisionItReplaces_whichKeepsItsOwn() throws {
        let folder = try TemporaryDirectory()
        let store = AttachmentStore(directory: folder.url.appendingPathComponent("data"))
        let photo = try store.add(Data("photo".utf8), fileExtension: "jpg", instanceID: "uuid:first")
        let missing = try store.carry([photo, "1.wav"], from: "uuid:first", to: "uuid:edit")
        XCTAssertEqual(missing, ["1.wav"], "a file gone from the revision is named, not invented")
        let copy = try XCTUnwrap(store.url(of: photo, instanceID: "uuid:edit"))
        XCTAssertEqual(try String(contentsOf: copy, encoding: .utf8), "photo", "under the name its answer gives it")
        XCTAssertEqual(try mode(copy), 0o600)
        XCTAssertEqual(try mode(store.folder(forInstance: "uuid:edit")), 0o700)
        try store.keepOnly([], instanceID: "uuid:edit")
        let original = try XCTUnwrap(store.url(of: photo, instanceID: "uuid:first"))
        XCTAssertEqual(try String(contentsOf: original, encoding: .utf8), "photo", "a cancelled edit leaves the revision's own file")
    }
}
