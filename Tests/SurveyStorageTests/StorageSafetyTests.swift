import FormEngine
import Foundation
import GRDB
import SurveyModel
import SurveyStorage
import XCTest

/// What keeps stored answers private, durable and whole: file modes, the
/// database's settings, a newer version's database, and an export that only
/// reads.
final class StorageSafetyTests: XCTestCase {
    private func mode(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as! NSNumber).intValue
    }

    private func response(_ name: String) -> SurveyResponse {
        SurveyResponse(answers: SurveyAnswers(name: name, comments: "salary talk"), submittedAt: Date(timeIntervalSince1970: 1))
    }

    // MARK: - Permissions

    func testDataFolderAndEveryFileInIt_areTheOwnersOnly() throws {
        let parent = try TemporaryDirectory()
        let folder = parent.url.appendingPathComponent("data")
        let store = try ResponseStore(directory: folder)
        try store.insert(response("Ada"))
        try DraftStore(directory: folder).save(SurveyAnswers(name: "typing"))

        XCTAssertEqual(try mode(folder), 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertTrue(files.contains(ResponseStore.fileName) && files.contains(DraftStore.fileName), "\(files)")
        for file in files {
            XCTAssertEqual(try mode(folder.appendingPathComponent(file)), 0o600, file)
        }
    }

    func testLooserModesFromAnOlderVersion_areNarrowed() throws {
        let folder = try TemporaryDirectory()
        do {
            let store = try ResponseStore(directory: folder.url)
            try store.insert(response("Ada"))
            try DraftStore(directory: folder.url).save(SurveyAnswers(name: "typing"))
        }
        chmod(folder.url.path, 0o755)
        let database = folder.url.appendingPathComponent(ResponseStore.fileName)
        let draft = folder.url.appendingPathComponent(DraftStore.fileName)
        chmod(database.path, 0o644)
        chmod(draft.path, 0o644)

        _ = try ResponseStore(directory: folder.url)
        XCTAssertEqual(try mode(folder.url), 0o700)
        XCTAssertEqual(try mode(database), 0o600)
        try DraftStore(directory: folder.url).save(SurveyAnswers(name: "more"))
        XCTAssertEqual(try mode(draft), 0o600)
    }

    func testASetAsideDatabase_isTheOwnersOnly() throws {
        let folder = try TemporaryDirectory()
        let database = folder.url.appendingPathComponent(ResponseStore.fileName)
        try Data(repeating: 0x5A, count: 4096).write(to: database)
        chmod(database.path, 0o644)
        let store = try ResponseStore(directory: folder.url)
        XCTAssertEqual(try mode(try XCTUnwrap(store.setAside).movedTo), 0o600)
    }

    // MARK: - Durability

    func testTheDatabase_syncsEveryCommit_andWaitsForALock() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        XCTAssertEqual(try store._pragma("journal_mode"), "delete")
        XCTAssertEqual(try store._pragma("synchronous"), "2", "FULL")
        XCTAssertEqual(try store._pragma("busy_timeout"), "5000")
    }

    // MARK: - A newer version's database

    func testANewerVersionsDatabase_opensReadOnly_andStoresNothing() throws {
        let folder = try TemporaryDirectory()
        try folder.makeNewerVersionsDatabase(holding: [response("stored by the newer version")])
        let store = try ResponseStore(directory: folder.url)
        XCTAssertTrue(store.isReadOnly)
        XCTAssertEqual(try store.newestFirst().map(\.answers.name), ["stored by the newer version"])
        XCTAssertThrowsError(try store.insert(response("refused"))) { error in
            XCTAssertEqual((error as? StorageError)?.code, .newerDatabase)
        }
        XCTAssertEqual(try store.count(), 1)
    }

    // MARK: - Opening only to read (the export)

    func testOpenExisting_withNoDatabase_failsAndCreatesNothing() throws {
        let folder = try TemporaryDirectory()
        XCTAssertThrowsError(try ResponseStore.openExisting(directory: folder.url)) { error in
            XCTAssertTrue((error as? StorageError)?.message.contains("no response database") == true, "\(error)")
        }
        XCTAssertEqual(try folder.contents(), [])
    }

    func testOpenExisting_refusesADamagedDatabase_andLeavesItWhereItIs() throws {
        let folder = try TemporaryDirectory()
        let database = folder.url.appendingPathComponent(ResponseStore.fileName)
        let garbage = Data(repeating: 0x5A, count: 4096)
        try garbage.write(to: database)
        XCTAssertThrowsError(try ResponseStore.openExisting(directory: folder.url)) { error in
            XCTAssertTrue((error as? StorageError)?.message.contains("damaged") == true, "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: database), garbage)
        XCTAssertEqual(try folder.contents(), [ResponseStore.fileName])
    }

    func testOpenExisting_refusesANewerVersionsDatabase() throws {
        let folder = try TemporaryDirectory()
        try folder.makeNewerVersionsDatabase()
        XCTAssertThrowsError(try ResponseStore.openExisting(directory: folder.url)) { error in
            XCTAssertEqual((error as? StorageError)?.code, .newerDatabase)
        }
    }

    func testOpenExisting_readsAHealthyDatabase() throws {
        let folder = try TemporaryDirectory()
        do { try ResponseStore(directory: folder.url).insert(response("Ada")) }
        let store = try ResponseStore.openExisting(directory: folder.url)
        XCTAssertEqual(try store.inSubmissionOrder().map(\.answers.name), ["Ada"])
        XCTAssertThrowsError(try store.insert(response("no")), "an export's store only reads")
    }
}

/// One response is stored once, however often it is submitted.
final class InstanceIDTests: XCTestCase {
    private func response(_ name: String, instanceID: String?) -> SurveyResponse {
        SurveyResponse(answers: SurveyAnswers(name: name), submittedAt: Date(timeIntervalSince1970: 1), instanceID: instanceID)
    }

    func testTheSameInstanceSubmittedTwice_isStoredOnce() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        let first = try store.insert(response("Ada", instanceID: "uuid:1"))
        let again = try store.insert(response("Ada", instanceID: "uuid:1"))
        XCTAssertEqual(again, first)
        try store.insert(response("Grace", instanceID: "uuid:2"))
        try store.insert(response("no id", instanceID: nil))
        try store.insert(response("no id", instanceID: nil))
        XCTAssertEqual(try store.inSubmissionOrder().map(\.answers.name), ["Ada", "Grace", "no id", "no id"])
        XCTAssertEqual(try store.inSubmissionOrder().first?.instanceID, "uuid:1")
    }

    func testADraft_keepsItsResponsesInstanceID() throws {
        let folder = try TemporaryDirectory()
        let drafts = DraftStore(directory: folder.url)
        try drafts.save(SurveyAnswers(name: "typing"), instanceID: "uuid:42")
        XCTAssertEqual(try drafts.load(), .restored(SurveyAnswers(name: "typing"), instanceID: "uuid:42"))
    }

    /// A database made before instance ids (schema v1, as the first release
    /// wrote it) opens, keeps its responses, and takes new ones.
    func testADatabaseFromBeforeInstanceIDs_opensAndKeepsItsResponses() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url.appendingPathComponent(ResponseStore.fileName)
        do {
            let queue = try DatabaseQueue(path: url.path)
            try queue.write { db in
                try db.execute(sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1: responses');
                    CREATE TABLE response (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, submittedAt DATETIME NOT NULL, name TEXT NOT NULL,
                        companyName TEXT NOT NULL, yearsOfExperience DOUBLE, isCurrentEmployer BOOLEAN NOT NULL,
                        approxSalary DOUBLE, comments TEXT NOT NULL);
                    CREATE INDEX response_on_submittedAt ON response(submittedAt);
                    INSERT INTO response (submittedAt, name, companyName, yearsOfExperience, isCurrentEmployer, approxSalary, comments)
                    VALUES ('2026-11-20 10:00:00.000', 'From v1', 'Engines', 12.5, 1, 85000, 'kept');
                    """)
            }
        }
        let exported = try ResponseStore.openExisting(directory: folder.url).inSubmissionOrder()
        XCTAssertEqual(exported.map(\.answers.name), ["From v1"], "an export reads the old schema as it is")

        let store = try ResponseStore(directory: folder.url)
        let old = try XCTUnwrap(store.inSubmissionOrder().first)
        XCTAssertEqual(old.answers, SurveyAnswers(
            name: "From v1", companyName: "Engines", yearsOfExperience: 12.5,
            isCurrentEmployer: true, approxSalary: 85_000, comments: "kept"
        ))
        // Opened for writing, it gets the instance id the server knows it
        // by, and waits in the outbox like every response stored since.
        let instanceID = try XCTUnwrap(old.instanceID)
        XCTAssertTrue(instanceID.hasPrefix("uuid:"), instanceID)
        XCTAssertEqual(try store.delivery(of: instanceID)?.state, .waiting)
        try store.insert(response("After", instanceID: "uuid:7"))
        try store.insert(response("After", instanceID: "uuid:7"))
        XCTAssertEqual(try store.count(), 2)
    }
}

/// A database deleted or replaced while the app has it open: no response is
/// confirmed into a file the next launch would not open.
final class VanishingDatabaseTests: XCTestCase {
    private func response(_ name: String) -> SurveyResponse {
        SurveyResponse(answers: SurveyAnswers(name: name), submittedAt: Date(timeIntervalSince1970: 1),
                       instanceID: "uuid:\(UUID())")
    }

    func testADeletedDataFolder_isStartedAgain_andTheResponseLandsWhereTheNextLaunchLooks() throws {
        let parent = try TemporaryDirectory()
        let folder = parent.url.appendingPathComponent("data")
        let store = try ResponseStore(directory: folder)
        try store.insert(response("before"))
        try FileManager.default.removeItem(at: folder)

        try store.insert(response("after"))
        XCTAssertEqual(try ResponseStore(directory: folder).inSubmissionOrder().map(\.answers.name), ["after"])
        XCTAssertEqual(try store.inSubmissionOrder().map(\.answers.name), ["after"])
    }

    func testADatabaseSetAsideByAnotherProcess_isNotWrittenAnyMore() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        try store.insert(response("first"))
        let database = folder.url.appendingPathComponent(ResponseStore.fileName)
        let aside = folder.url.appendingPathComponent("set-aside.sqlite3")
        try FileManager.default.moveItem(at: database, to: aside)

        try store.insert(response("second"))
        XCTAssertEqual(try ResponseStore(directory: folder.url).inSubmissionOrder().map(\.answers.name), ["second"])
        XCTAssertEqual(try ResponseStore.openExisting(directory: folder.url).count(), 1)
    }

    func testADatabaseReplacedByAnother_isTheOneReadAndWritten() throws {
        let folder = try TemporaryDirectory(), other = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        try store.insert(response("mine"))
        do { try ResponseStore(directory: other.url).insert(response("theirs")) }
        let database = folder.url.appendingPathComponent(ResponseStore.fileName)
        XCTAssertEqual(rename(other.url.appendingPathComponent(ResponseStore.fileName).path, database.path), 0)

        XCTAssertEqual(try store.inSubmissionOrder().map(\.answers.name), ["theirs"])
        try store.insert(response("next"))
        XCTAssertEqual(try ResponseStore(directory: folder.url).inSubmissionOrder().map(\.answers.name), ["theirs", "next"])
    }
}

/// Storage messages reach the user in their language, through the app's
/// translator.
final class StorageMessageTranslationTests: XCTestCase {
    func testStorageMessages_goThroughTheTranslator_withTheirDetailsFilledIn() throws {
        let saved = Localization.translate
        defer { Localization.translate = saved }
        Localization.translate = { message in
            message == "There is no response database at %@: no response has been stored on this computer yet."
                ? "Unter %@ gibt es keine Antwortdatenbank." : message
        }
        let folder = try TemporaryDirectory()
        XCTAssertThrowsError(try ResponseStore.openExisting(directory: folder.url)) { error in
            XCTAssertEqual(
                (error as? StorageError)?.message,
                "Unter \(folder.url.appendingPathComponent(ResponseStore.fileName).path) gibt es keine Antwortdatenbank."
            )
        }
    }
}
