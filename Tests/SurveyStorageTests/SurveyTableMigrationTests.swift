import FormEngine
import Foundation
import GRDB
import SurveyStorage
import XCTest

/// Migration v7 on a database the previous release wrote (schema v6): the
/// built-in survey's own table (`response`) is moved into `form_response`,
/// its queue entries follow, and a database only read keeps being read as
/// it is.
final class SurveyTableMigrationTests: XCTestCase {
    /// 2026-11-23 09:00 UTC, and minutes from there.
    private func at(_ minutes: Double) -> Date {
        Date(timeIntervalSince1970: 1_795_424_400 + minutes * 60)
    }

    private static let deviceID = "5b0c5d0e-6a1f-4c2b-9d3e-7f8a9b0c1d2e"

    /// Schema v6 as migrations v1–v6 made it (the statements GRDB ran, in
    /// their order), holding three built-in responses (waiting, sent with
    /// its time, failed with its reason) and a response to a form from a file.
    private static let schemaV6 = #"""
        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
        INSERT INTO grdb_migrations VALUES ('v1: responses'), ('v2: instance ids'), ('v3: responses to any form'),
          ('v4: outbox'), ('v5: undelivered in order'), ('v6: built-in start times and versions');
        CREATE TABLE "response" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "submittedAt" DATETIME NOT NULL,
          "name" TEXT NOT NULL, "companyName" TEXT NOT NULL, "yearsOfExperience" DOUBLE,
          "isCurrentEmployer" BOOLEAN NOT NULL, "approxSalary" DOUBLE, "comments" TEXT NOT NULL);
        CREATE INDEX "response_on_submittedAt" ON "response"("submittedAt");
        ALTER TABLE "response" ADD COLUMN "instanceID" TEXT;
        CREATE UNIQUE INDEX "response_instanceID" ON "response"("instanceID");
        CREATE TABLE "form_response" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "formID" TEXT NOT NULL,
          "formVersion" TEXT NOT NULL, "instanceID" TEXT NOT NULL UNIQUE, "startedAt" DATETIME NOT NULL,
          "submittedAt" DATETIME NOT NULL, "answers" TEXT NOT NULL);
        CREATE INDEX "form_response_form" ON "form_response"("formID", "id");
        CREATE TABLE store_info (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
        INSERT INTO store_info (key, value) VALUES ('device_id', '5b0c5d0e-6a1f-4c2b-9d3e-7f8a9b0c1d2e');
        CREATE TABLE delivery (
            instanceID TEXT PRIMARY KEY NOT NULL,
            source TEXT NOT NULL CHECK (source IN ('survey', 'form')),
            responseID INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('waiting', 'sending', 'sent', 'failed')),
            attempts INTEGER NOT NULL DEFAULT 0,
            lastError TEXT,
            nextAttemptAt DATETIME,
            queuedAt DATETIME NOT NULL,
            sentAt DATETIME
        );
        CREATE INDEX delivery_due ON delivery (state, queuedAt);
        CREATE INDEX delivery_response ON delivery (source, responseID);
        CREATE INDEX delivery_pending ON delivery (queuedAt) WHERE state <> 'sent';
        ALTER TABLE "response" ADD COLUMN "startedAt" DATETIME;
        ALTER TABLE "response" ADD COLUMN "formVersion" TEXT;

        INSERT INTO response VALUES (1, '2026-11-23 09:00:00.000', 'Ada Lovelace', 'Analytical Engines', 12.5, 1, 85000.0,
          'First line' || char(10) || 'second line', 'uuid:ada', '2026-11-23 08:55:00.000', '1');
        INSERT INTO response VALUES (2, '2026-11-23 09:10:00.000', 'Grace Hopper', '', NULL, 0, NULL, '', 'uuid:grace', NULL, NULL);
        INSERT INTO response VALUES (3, '2026-11-23 09:20:00.000', 'Edsger Dijkstra', 'Mathematisch Centrum', 0.0, 0, 0.0,
          '=1+1', 'uuid:edsger', '2026-11-23 09:15:00.000', '2');
        INSERT INTO form_response VALUES (1, 'household', '3', 'uuid:household', '2026-11-23 09:01:00.000',
          '2026-11-23 09:02:00.000', '[{"path":"name","value":"Grace Hopper"},{"path":"member[1]\/age","value":"36"}]');
        INSERT INTO delivery VALUES ('uuid:ada', 'survey', 1, 'waiting', 0, NULL, NULL, '2026-11-23 09:00:01.000', NULL);
        INSERT INTO delivery VALUES ('uuid:household', 'form', 1, 'waiting', 0, NULL, NULL, '2026-11-23 09:02:01.000', NULL);
        INSERT INTO delivery VALUES ('uuid:grace', 'survey', 2, 'sent', 1, NULL, NULL, '2026-11-23 09:10:01.000',
          '2026-11-23 09:11:00.000');
        INSERT INTO delivery VALUES ('uuid:edsger', 'survey', 3, 'failed', 3, 'server unreachable', '2100-01-01 00:00:00.000',
          '2026-11-23 09:20:01.000', NULL);
        """#

    /// A response stored both ways (its draft submitted through the survey's
    /// form file too): the survey table's copy, queued, and the form's row.
    private static let storedTwice = #"""
        INSERT INTO response VALUES (4, '2026-11-23 09:40:00.000', 'Alan Kay (survey table)', '', NULL, 1, NULL, '',
          'uuid:twice', NULL, '1');
        INSERT INTO form_response VALUES (2, 'survey_form', '1', 'uuid:twice', '2026-11-23 09:39:00.000', '2026-11-23 09:40:00.000',
          '[{"path":"name","value":"Alan Kay"},{"path":"company","value":""},{"path":"years_of_experience","value":"","kind":"number"},{"path":"current_employer","value":"OK","kind":"boolean"},{"path":"approx_salary","value":"","kind":"number"},{"path":"comments","value":""}]');
        INSERT INTO delivery VALUES ('uuid:twice', 'survey', 4, 'waiting', 0, NULL, NULL, '2026-11-23 09:40:01.000', NULL);
        """#

    /// A row as schema v1 stored it, without an instance id.
    private static let unnamed = """
        INSERT INTO response VALUES (9, '2026-11-23 09:30:00.000', 'Barbara Liskov', 'MIT', 40.0, 1, 120000.0, '', NULL, NULL, NULL);
        """

    /// Writes a schema v6 database into `folder`, with `extra` statements run after.
    private func makeSchemaV6Database(in folder: TemporaryDirectory, _ extra: String...) throws {
        let queue = try DatabaseQueue(path: folder.url.appendingPathComponent(ResponseStore.fileName).path)
        try queue.write { db in
            try db.execute(sql: Self.schemaV6)
            for statements in extra { try db.execute(sql: statements) }
        }
        try queue.close()
    }

    /// Reads the database file directly, beside whatever store has it open.
    private func readFile<T>(_ folder: TemporaryDirectory, _ read: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: folder.url.appendingPathComponent(ResponseStore.fileName).path,
                                      configuration: configuration)
        defer { try? queue.close() }
        return try queue.read(read)
    }

    private func surveyResponses(_ store: ResponseStore) throws -> [FormResponse] {
        var responses: [FormResponse] = []
        try store.forEachResponse(toForm: "survey_form") { responses.append($0) }
        return responses
    }

    private func withoutID(_ response: FormResponse) -> FormResponse {
        var response = response
        response.id = nil
        return response
    }

    // MARK: - Migration v7

    func testTheSurveysRowsMove_withTheirAnswersKindsTitlesVersionsAndStarts() throws {
        let folder = try TemporaryDirectory()
        try makeSchemaV6Database(in: folder, Self.storedTwice)

        let store = try ResponseStore(directory: folder.url)

        XCTAssertFalse(store.isReadOnly)
        let survey = try surveyResponses(store)
        XCTAssertEqual(survey.map(\.instanceID), ["uuid:twice", "uuid:ada", "uuid:grace", "uuid:edsger"],
                       "in the order stored: the form's row first, then the moved ones in the table's order")
        XCTAssertEqual(withoutID(survey[1]), .survey(
            name: "Ada Lovelace", company: "Analytical Engines", years: "12.5", isCurrentEmployer: true, salary: "85000",
            comments: "First line\nsecond line", submittedAt: at(0), startedAt: at(-5), instanceID: "uuid:ada", formVersion: "1"
        ))
        XCTAssertEqual(withoutID(survey[2]), .survey(name: "Grace Hopper", submittedAt: at(10), instanceID: "uuid:grace"),
                       "no start kept: started when submitted; no version kept: the survey's first")
        XCTAssertEqual(withoutID(survey[3]), .survey(
            name: "Edsger Dijkstra", company: "Mathematisch Centrum", years: "0", salary: "0", comments: "=1+1",
            submittedAt: at(20), startedAt: at(15), instanceID: "uuid:edsger", formVersion: "2"
        ))
        XCTAssertEqual(survey[1].title, "Ada Lovelace — Analytical Engines")
        XCTAssertEqual(survey[2].title, "Grace Hopper")

        // Stored both ways: the form's row stays, once, with its own answers.
        XCTAssertEqual(survey[0].answer(at: "name"), "Alan Kay")
        XCTAssertEqual(survey[0].title, "Alan Kay", "a form's row is titled by its first text answer")
        XCTAssertEqual(try store.count(), 5)

        let household = try XCTUnwrap(store.responses(toForm: "household").first)
        XCTAssertEqual(household.title, "Grace Hopper")
        XCTAssertEqual(household.answers, [.init(path: "name", value: "Grace Hopper"), .init(path: "member[1]/age", value: "36")],
                       "a form's answers are left as they were")
        XCTAssertEqual(try store.deviceID(), Self.deviceID, "the laptop keeps its id")
    }

    func testTheQueueFollowsTheMovedRows_withStatesAttemptsAndTimesKept() throws {
        let folder = try TemporaryDirectory()
        try makeSchemaV6Database(in: folder, Self.storedTwice)

        let store = try ResponseStore(directory: folder.url)

        let waiting = try XCTUnwrap(store.delivery(of: "uuid:ada"))
        XCTAssertEqual(waiting.state, .waiting)
        XCTAssertEqual(waiting.attempts, 0)
        let sent = try XCTUnwrap(store.delivery(of: "uuid:grace"))
        XCTAssertEqual(sent.state, .sent)
        XCTAssertEqual(sent.attempts, 1)
        XCTAssertEqual(sent.sentAt, at(11))
        let failed = try XCTUnwrap(store.delivery(of: "uuid:edsger"))
        XCTAssertEqual(failed.state, .failed)
        XCTAssertEqual(failed.attempts, 3)
        XCTAssertEqual(failed.lastError, "server unreachable")
        XCTAssertEqual(failed.nextAttemptAt, Date(timeIntervalSince1970: 4_102_444_800))
        XCTAssertEqual(try store.delivery(of: "uuid:twice")?.state, .waiting)
        XCTAssertEqual(try store.delivery(of: "uuid:household")?.state, .waiting)

        // Every queue entry is a form's now, and points at its own row.
        let (notForm, matched, entries) = try readFile(folder) { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM delivery WHERE source <> 'form'"),
             try Int.fetchOne(db, sql: """
                SELECT count(*) FROM delivery d JOIN form_response f ON f.id = d.responseID AND f.instanceID = d.instanceID
                """),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM delivery"))
        }
        XCTAssertEqual(notForm, 0)
        XCTAssertEqual(matched, entries)
        XCTAssertEqual(entries, 5)

        // What was waiting goes, oldest queued first, as the server reads it;
        // the sent one is not sent again, the failed one waits its turn.
        let batch = try store.claimBatch(limit: 10, leaseEnd: Date() + 60)
        XCTAssertEqual(batch.map(\.instanceID), ["uuid:ada", "uuid:household", "uuid:twice"])
        let ada = batch[0]
        XCTAssertEqual([ada.formID, ada.formVersion], ["survey_form", "1"])
        XCTAssertEqual(ada.startedAt, at(-5))
        XCTAssertEqual(ada.submittedAt, at(0))
        XCTAssertEqual(ada.answersJSON, #"{"name":"Ada Lovelace","company":"Analytical Engines","years_of_experience":12.5,"#
            + #""current_employer":true,"approx_salary":85000,"comments":"First line\nsecond line"}"#)
        XCTAssertEqual(batch[2].answersJSON, #"{"name":"Alan Kay","company":"","years_of_experience":null,"#
            + #""current_employer":true,"approx_salary":null,"comments":""}"#, "the form's row, not the table's copy")
    }

    func testTheSurveysTableIsDropped_andFormRowsGetATitleColumn() throws {
        let folder = try TemporaryDirectory()
        try makeSchemaV6Database(in: folder, Self.storedTwice)

        _ = try ResponseStore(directory: folder.url)

        let (hasResponse, columns, migrations) = try readFile(folder) { db in
            (try db.tableExists("response"), try db.columns(in: "form_response").map(\.name),
             try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier"))
        }
        XCTAssertFalse(hasResponse)
        XCTAssertTrue(columns.contains("title"), "\(columns)")
        XCTAssertTrue(migrations.contains("v7: one table for every form"), "\(migrations)")
        XCTAssertTrue(migrations.contains("v10: edits as revisions"), "\(migrations)")
        XCTAssertTrue(migrations.contains("v11: encrypted submissions"), "\(migrations)")
        XCTAssertEqual(migrations.count, 11)
    }

    func testAV1RowWithoutAnInstanceID_getsOneWhenMoved() throws {
        let folder = try TemporaryDirectory()
        try makeSchemaV6Database(in: folder, Self.unnamed)

        let store = try ResponseStore(directory: folder.url)

        let barbara = try XCTUnwrap(surveyResponses(store).first { $0.answer(at: "name") == "Barbara Liskov" })
        XCTAssertTrue(barbara.instanceID.hasPrefix("uuid:"), barbara.instanceID)
        XCTAssertEqual(barbara.answers, FormResponse.surveyAnswers(
            name: "Barbara Liskov", company: "MIT", years: "40", isCurrentEmployer: true, salary: "120000"))
        XCTAssertEqual(barbara.title, "Barbara Liskov — MIT")
        XCTAssertEqual(barbara.formVersion, "1")
        XCTAssertEqual(barbara.startedAt, at(30))
    }

    func testOpeningAgain_changesNothing() throws {
        let folder = try TemporaryDirectory()
        try makeSchemaV6Database(in: folder, Self.storedTwice)
        func snapshot() throws -> (responses: [FormResponse], listed: [ListedResponse], deliveries: [String: Delivery]) {
            let store = try ResponseStore(directory: folder.url)
            let responses = try surveyResponses(store) + store.responses(toForm: "household")
            return (responses, try store.listing(ofForm: "survey_form"),
                    try store.deliveries(of: responses.map(\.instanceID)))
        }

        let first = try snapshot()
        let second = try snapshot()

        XCTAssertEqual(second.responses, first.responses)
        XCTAssertEqual(second.listed, first.listed)
        XCTAssertEqual(second.deliveries, first.deliveries)
        XCTAssertEqual(first.responses.count, 5)
        XCTAssertEqual(try readFile(folder) { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") }, 11)
    }

    func testTheListing_isNewestFirst_withTitlesAndDeliveries() throws {
        let folder = try TemporaryDirectory()
        try makeSchemaV6Database(in: folder, Self.storedTwice)

        let listed = try ResponseStore(directory: folder.url).listing(ofForm: "survey_form")

        XCTAssertEqual(listed.map(\.title), [
            "Alan Kay", "Edsger Dijkstra — Mathematisch Centrum", "Grace Hopper", "Ada Lovelace — Analytical Engines",
        ])
        XCTAssertEqual(listed.map(\.instanceID), ["uuid:twice", "uuid:edsger", "uuid:grace", "uuid:ada"])
        XCTAssertEqual(listed.map(\.submittedAt), [at(40), at(20), at(10), at(0)])
        XCTAssertEqual(listed.map(\.delivery), [.waiting, .failed, .sent, .waiting])
        XCTAssertEqual(listed[1].deliveryError, "server unreachable")
    }

    // MARK: - A database that is only read

    func testADatabaseWithAMigrationThisVersionDoesNotKnow_opensReadOnly_unmigrated() throws {
        let folder = try TemporaryDirectory()
        try makeSchemaV6Database(in: folder, "INSERT INTO grdb_migrations VALUES ('v99: from a newer version');")

        let store = try ResponseStore(directory: folder.url)

        XCTAssertTrue(store.isReadOnly)
        XCTAssertThrowsError(try store.insert(.survey(name: "refused"))) { error in
            XCTAssertEqual((error as? StorageError)?.code, .newerDatabase)
        }
        XCTAssertTrue(try readFile(folder) { db in try db.tableExists("response") }, "not migrated")
        XCTAssertEqual(try store.surveyNames(), ["Ada Lovelace", "Grace Hopper", "Edsger Dijkstra"],
                       "the survey's rows still read from their own table")
        XCTAssertEqual(try store.listing(ofForm: "household").map(\.instanceID), ["uuid:household"],
                       "a form's rows list without titles")
        XCTAssertEqual(try store.delivery(of: "uuid:grace")?.state, .sent)
    }

    func testAnExportOfASchemaV6Database_readsTheSurveysRowsTyped_andLeavesTheFileAsItWas() throws {
        let folder = try TemporaryDirectory()
        try makeSchemaV6Database(in: folder)
        let database = folder.url.appendingPathComponent(ResponseStore.fileName)
        let before = try Data(contentsOf: database)

        let store = try ResponseStore.openExisting(directory: folder.url)

        let survey = try surveyResponses(store)
        XCTAssertEqual(survey.map(\.instanceID), ["uuid:ada", "uuid:grace", "uuid:edsger"])
        XCTAssertEqual(survey[0], .survey(
            name: "Ada Lovelace", company: "Analytical Engines", years: "12.5", isCurrentEmployer: true, salary: "85000",
            comments: "First line\nsecond line", submittedAt: at(0), startedAt: at(-5), instanceID: "uuid:ada", formVersion: "1"
        ))
        XCTAssertEqual(survey.map(\.formVersion), ["1", "1", "2"])
        XCTAssertEqual(survey.map(\.startedAt), [at(-5), at(10), at(15)])

        let target = folder.url.appendingPathComponent("export.csv")
        XCTAssertEqual(try FormCSVExporter.write(SurveyFormFile.definition(), from: store, to: target, replacing: false), 3)
        let lines = String(decoding: try Data(contentsOf: target), as: UTF8.self).dropFirst().components(separatedBy: "\r\n")
        XCTAssertEqual(lines, [
            "submitted_at,name,company,years_of_experience,current_employer,approx_salary,comments,instance_id,form_version,started_at",
            "2026-11-23T09:00:00Z,Ada Lovelace,Analytical Engines,12.5,true,85000,\"First line\nsecond line\",uuid:ada,1,2026-11-23T08:55:00Z",
            "2026-11-23T09:10:00Z,Grace Hopper,,,false,,,uuid:grace,1,2026-11-23T09:10:00Z",
            "2026-11-23T09:20:00Z,Edsger Dijkstra,Mathematisch Centrum,0,false,0,'=1+1,uuid:edsger,2,2026-11-23T09:15:00Z",
            "",
        ])
        XCTAssertEqual(try Data(contentsOf: database), before, "an export changes nothing in the file")
    }
}
