import FormEngine
import Foundation
import GRDB
import SurveyStorage
import XCTest

/// What keeps stored answers private, durable and whole: file modes, the
/// database's settings, a newer version's database, and an export that only
/// reads.
final class StorageSafetyTests: XCTestCase {
    private func mode(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as! NSNumber).intValue
    }

    private func response(_ name: String) -> FormResponse {
        .survey(name: name, comments: "salary talk")
    }

    private func draft(_ name: String) -> FormDraft {
        FormDraft(formID: "survey_form", formVersion: "1", instanceID: "uuid:draft", startedAt: Date(timeIntervalSince1970: 1),
                  answers: FormResponse.surveyAnswers(name: name, comments: "salary talk"))
    }

    // MARK: - Permissions

    func testDataFolderAndEveryFileInIt_areTheOwnersOnly() throws {
        let parent = try TemporaryDirectory()
        let folder = parent.url.appendingPathComponent("data")
        let store = try ResponseStore(directory: folder)
        try store.insert(response("Ada"))
        let drafts = FormDraftStore(directory: folder)
        try drafts.save(draft("typing"))

        XCTAssertEqual(try mode(folder), 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertEqual(Set(files), [ResponseStore.fileName, drafts.folder.lastPathComponent])
        XCTAssertEqual(try mode(folder.appendingPathComponent(ResponseStore.fileName)), 0o600)
        XCTAssertEqual(try mode(drafts.folder), 0o700)
        let draftFiles = try FileManager.default.contentsOfDirectory(atPath: drafts.folder.path)
        XCTAssertEqual(draftFiles.count, 1)
        for file in draftFiles {
            XCTAssertEqual(try mode(drafts.folder.appendingPathComponent(file)), 0o600, file)
        }
    }

    func testLooserModesFromAnOlderVersion_areNarrowed() throws {
        let folder = try TemporaryDirectory()
        let drafts = FormDraftStore(directory: folder.url)
        do {
            let store = try ResponseStore(directory: folder.url)
            try store.insert(response("Ada"))
            try drafts.save(draft("typing"))
        }
        chmod(folder.url.path, 0o755)
        let database = folder.url.appendingPathComponent(ResponseStore.fileName)
        let draftFile = drafts.url(formID: "survey_form", version: "1")
        chmod(database.path, 0o644)
        chmod(drafts.folder.path, 0o755)
        chmod(draftFile.path, 0o644)

        _ = try ResponseStore(directory: folder.url)
        XCTAssertEqual(try mode(folder.url), 0o700)
        XCTAssertEqual(try mode(database), 0o600)
        try drafts.save(draft("more"))
        XCTAssertEqual(try mode(drafts.folder), 0o700)
        XCTAssertEqual(try mode(draftFile), 0o600)
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
        XCTAssertEqual(try store.surveyNames(), ["stored by the newer version"])
        XCTAssertEqual(try store.listing(ofForm: "survey_form").map(\.title), ["stored by the newer version"])
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
        XCTAssertEqual(try store.surveyNames(), ["Ada"])
        XCTAssertThrowsError(try store.insert(response("no")), "an export's store only reads")
    }
}

/// One response is stored once, however often it is submitted.
final class InstanceIDTests: XCTestCase {
    private func response(_ name: String, instanceID: String) -> FormResponse {
        .survey(name: name, instanceID: instanceID)
    }

    func testTheSameInstanceSubmittedTwice_isStoredOnce() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        let first = try store.insert(response("Ada", instanceID: "uuid:1"))
        let again = try store.insert(response("Ada", instanceID: "uuid:1"))
        XCTAssertEqual(again, first)
        try store.insert(response("Grace", instanceID: "uuid:2"))
        XCTAssertEqual(try store.surveyNames(), ["Ada", "Grace"])
        XCTAssertEqual(try store.responses(toForm: "survey_form").last?.instanceID, "uuid:1")
        XCTAssertEqual(try store.deliverySummary().waiting, 2, "queued once each")
    }

    func testADraft_keepsItsResponsesInstanceID() throws {
        let folder = try TemporaryDirectory()
        let drafts = FormDraftStore(directory: folder.url)
        try drafts.save(FormDraft(formID: "survey_form", formVersion: "1", instanceID: "uuid:42",
                                  startedAt: Date(timeIntervalSince1970: 1), answers: FormResponse.surveyAnswers(name: "typing")))
        guard case .restored(let draft) = try drafts.load(formID: "survey_form", version: "1") else {
            return XCTFail("expected the draft")
        }
        XCTAssertEqual(draft.instanceID, "uuid:42")
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
        let exported = try ResponseStore.openExisting(directory: folder.url)
        XCTAssertEqual(try exported.surveyNames(), ["From v1"], "an export reads the old schema as it is")

        let store = try ResponseStore(directory: folder.url)
        let old = try XCTUnwrap(store.responses(toForm: "survey_form").first)
        XCTAssertEqual(old.answers, FormResponse.surveyAnswers(
            name: "From v1", company: "Engines", years: "12.5", isCurrentEmployer: true, salary: "85000", comments: "kept"
        ))
        XCTAssertEqual(old.startedAt, old.submittedAt, "no start was kept: it started when it was submitted")
        // Opened for writing, it gets the instance id the server knows it
        // by, and waits in the outbox like every response stored since.
        let instanceID = old.instanceID
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
    private func response(_ name: String) -> FormResponse {
        .survey(name: name, instanceID: "uuid:\(UUID())")
    }

    func testADeletedDataFolder_isStartedAgain_andTheResponseLandsWhereTheNextLaunchLooks() throws {
        let parent = try TemporaryDirectory()
        let folder = parent.url.appendingPathComponent("data")
        let store = try ResponseStore(directory: folder)
        try store.insert(response("before"))
        try FileManager.default.removeItem(at: folder)

        try store.insert(response("after"))
        XCTAssertEqual(try ResponseStore(directory: folder).surveyNames(), ["after"])
        XCTAssertEqual(try store.surveyNames(), ["after"])
    }

    func testADatabaseSetAsideByAnotherProcess_isNotWrittenAnyMore() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        try store.insert(response("first"))
        let database = folder.url.appendingPathComponent(ResponseStore.fileName)
        let aside = folder.url.appendingPathComponent("set-aside.sqlite3")
        try FileManager.default.moveItem(at: database, to: aside)

        try store.insert(response("second"))
        XCTAssertEqual(try ResponseStore(directory: folder.url).surveyNames(), ["second"])
        XCTAssertEqual(try ResponseStore.openExisting(directory: folder.url).count(), 1)
    }

    func testADatabaseReplacedByAnother_isTheOneReadAndWritten() throws {
        let folder = try TemporaryDirectory(), other = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        try store.insert(response("mine"))
        do { try ResponseStore(directory: other.url).insert(response("theirs")) }
        let database = folder.url.appendingPathComponent(ResponseStore.fileName)
        XCTAssertEqual(rename(other.url.appendingPathComponent(ResponseStore.fileName).path, database.path), 0)

        XCTAssertEqual(try store.surveyNames(), ["theirs"])
        try store.insert(response("next"))
        XCTAssertEqual(try ResponseStore(directory: folder.url).surveyNames(), ["theirs", "next"])
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
