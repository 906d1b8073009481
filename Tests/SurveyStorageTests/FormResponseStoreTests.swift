import FormEngine
import Foundation
import GRDB
import SurveyStorage
import XCTest

/// Responses to forms (the built-in survey's too): stored once per
/// instance id, exported with a column per question in form order, and
/// read from every database an earlier release wrote.
final class FormResponseStoreTests: XCTestCase {
    private func response(_ instanceID: String, answers: [(String, String)], at seconds: TimeInterval = 0) -> FormResponse {
        FormResponse(
            formID: "household", formVersion: "3", instanceID: instanceID,
            startedAt: Date(timeIntervalSince1970: 1_700_000_000 + seconds),
            submittedAt: Date(timeIntervalSince1970: 1_700_000_060 + seconds),
            answers: answers.map { FormResponse.Answer(path: $0.0, value: $0.1) }
        )
    }

    func testAResponseIsStoredOncePerInstanceIDWithItsAnswersInOrder() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        let first = try store.insert(response("uuid:1", answers: [("name", "Ada\u{202E}"), ("member[1]/age", "36")]))
        XCTAssertNotNil(first.id)
        // The same instance again (a draft restored after a crash) is not stored twice.
        let again = try store.insert(response("uuid:1", answers: [("name", "Changed")]))
        XCTAssertEqual(again.id, first.id)
        let stored = try store.responses(toForm: "household")
        XCTAssertEqual(stored.count, 1)
        XCTAssertEqual(stored[0].answers.map(\.path), ["name", "member[1]/age"])
        XCTAssertEqual(stored[0].answer(at: "name"), "Ada", "bidi overrides are stripped as in the built-in survey")
        XCTAssertEqual(try store.responses(toForm: "other"), [])
        XCTAssertEqual(try store.count(), 1, "every form's responses are counted")
    }

    func testDeletingAResponseReturnsItSoThatUndoCanPutItBack() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        let stored = try store.insert(response("uuid:2", answers: [("name", "Grace")]))
        let deleted = try store.deleteResponse(id: try XCTUnwrap(stored.id))
        XCTAssertEqual(deleted?.answer(at: "name"), "Grace")
        XCTAssertEqual(try store.responses(toForm: "household"), [])
    }

    func testADatabaseFromTheLastReleaseKeepsItsResponsesAndTakesFormResponses() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url.appendingPathComponent(ResponseStore.fileName)
        // The schema the last release wrote (migrations v1 and v2), with a response.
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1: responses'), ('v2: instance ids');
                CREATE TABLE response (id INTEGER PRIMARY KEY AUTOINCREMENT, submittedAt DATETIME NOT NULL,
                  name TEXT NOT NULL, companyName TEXT NOT NULL, yearsOfExperience DOUBLE,
                  isCurrentEmployer BOOLEAN NOT NULL, approxSalary DOUBLE, comments TEXT NOT NULL, instanceID TEXT);
                INSERT INTO response (submittedAt, name, companyName, isCurrentEmployer, comments, instanceID)
                  VALUES ('2026-01-01 10:00:00.000', 'Ada', 'Engines', 1, '', 'uuid:old');
                """)
        }
        try queue.close()
        // An export of the old file reads it as it is.
        let exported = try ResponseStore.openExisting(directory: folder.url)
        XCTAssertEqual(try exported.responses(toForm: "household"), [])
        XCTAssertEqual(try exported.surveyNames(), ["Ada"])
        let store = try ResponseStore(directory: folder.url)
        XCTAssertEqual(try store.surveyNames(), ["Ada"])
        XCTAssertEqual(try store.responses(toForm: "survey_form").map(\.instanceID), ["uuid:old"])
        try store.insert(response("uuid:3", answers: [("name", "Grace")]))
        XCTAssertEqual(try store.responses(toForm: "household").count, 1)
    }

    func testADatabaseWrittenByRelease010OpensWithEveryResponse() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url.appendingPathComponent(ResponseStore.fileName)
        let dump = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/release-0.1.0.sql")
        let queue = try DatabaseQueue(path: url.path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: String(contentsOf: dump, encoding: .utf8)) }
        try queue.close()

        let store = try ResponseStore(directory: folder.url)
        let builtIn = try XCTUnwrap(store.responses(toForm: "survey_form").first)
        XCTAssertEqual(builtIn.answers, FormResponse.surveyAnswers(
            name: "Ada Lovelace", company: "Analytical Engines", years: "12.5", isCurrentEmployer: true, salary: "85000",
            comments: "First line\nsecond line"))
        XCTAssertEqual(builtIn.instanceID, "uuid:0b7c-built-in")
        XCTAssertEqual(builtIn.formVersion, "1")
        XCTAssertEqual(builtIn.title, "Ada Lovelace — Analytical Engines")
        let stored = try store.responses(toForm: "household")
        XCTAssertEqual(stored.map(\.instanceID), ["uuid:5d1e-household"])
        XCTAssertEqual(stored[0].formVersion, "3")
        XCTAssertEqual(stored[0].answers.map(\.path), ["name", "member[1]/age", "member[2]/age", "colours"])
        XCTAssertEqual(stored[0].answer(at: "member[2]/age"), "8")
        XCTAssertEqual(stored[0].startedAt, Date(timeIntervalSince1970: 1_763_900_100))
        // Both wait to be sent, as if they had just been stored.
        XCTAssertEqual(try store.delivery(of: "uuid:0b7c-built-in")?.state, .waiting)
        XCTAssertEqual(try store.delivery(of: "uuid:5d1e-household")?.state, .waiting)
        // And it goes on taking responses, once per instance.
        try store.insert(response("uuid:5d1e-household", answers: [("name", "Again")]))
        XCTAssertEqual(try store.responses(toForm: "household").count, 1)
    }

    /// `Fixtures/schema-v5.sqlite3` is a real file, not a dump: written by
    /// this release's `ResponseStore` (schema v5) and never edited, with two
    /// built-in responses, one to a form with repeats, and their deliveries
    /// sent, waiting and failed. Every later release must open it as it is.
    func testADatabaseFileWrittenBySchemaV5OpensWithEveryResponseAndDelivery() throws {
        let folder = try TemporaryDirectory()
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/schema-v5.sqlite3")
        try FileManager.default.copyItem(at: fixture, to: folder.url.appendingPathComponent(ResponseStore.fileName))

        let store = try ResponseStore(directory: folder.url)
        XCTAssertFalse(store.isReadOnly, "a file of a known schema is written to")
        XCTAssertEqual(try store.deviceID(), "36488730-9384-44e8-966a-a764e9f644c3", "the laptop keeps its id")
        var builtIn: [FormResponse] = []
        try store.forEachResponse(toForm: "survey_form") { builtIn.append($0) }
        XCTAssertEqual(builtIn.map(\.instanceID), ["uuid:7f3a-built-in", "uuid:7f3b-built-in"])
        XCTAssertEqual(builtIn[0].answers, FormResponse.surveyAnswers(
            name: "Zoë Fischer", company: "Rechenwerk GmbH", years: "7.5",
            isCurrentEmployer: true, salary: "64000", comments: "Zeile eins\nline two 🌱"))
        XCTAssertEqual(builtIn[0].submittedAt, Date(timeIntervalSince1970: 1_795_424_400))
        XCTAssertEqual(builtIn[1].answer(at: "years_of_experience"), "", "an unanswered number stays unanswered")
        XCTAssertEqual(builtIn[1].answer(at: "approx_salary"), "")
        XCTAssertEqual(builtIn.map(\.startedAt), builtIn.map(\.submittedAt),
                       "schema v5 kept no start for the built-in survey: it started when it was submitted")
        XCTAssertEqual(builtIn.map(\.formVersion), ["1", "1"])
        XCTAssertEqual(builtIn.map(\.title), ["Zoë Fischer — Rechenwerk GmbH", "Ada Lovelace — Analytical Engines"])

        let household = try XCTUnwrap(store.responses(toForm: "household").first)
        XCTAssertEqual(household.formVersion, "4")
        XCTAssertEqual(household.instanceID, "uuid:9c21-household")
        XCTAssertEqual(household.startedAt, Date(timeIntervalSince1970: 1_795_424_600))
        XCTAssertEqual(household.submittedAt, Date(timeIntervalSince1970: 1_795_424_660))
        XCTAssertEqual(household.answers.map(\.path), ["name", "member[1]/age", "member[2]/age", "colours"])
        XCTAssertEqual(household.answer(at: "colours"), "red blue")

        // What was sent stays sent; what failed keeps its reason and waits its turn.
        let sent = try XCTUnwrap(store.delivery(of: "uuid:7f3a-built-in"))
        XCTAssertEqual(sent.state, .sent)
        XCTAssertEqual(sent.sentAt, Date(timeIntervalSince1970: 1_795_424_800))
        XCTAssertEqual(try store.delivery(of: "uuid:7f3b-built-in")?.state, .waiting)
        let failed = try XCTUnwrap(store.delivery(of: "uuid:9c21-household"))
        XCTAssertEqual(failed.state, .failed)
        XCTAssertEqual(failed.lastError, "server unreachable")
        XCTAssertEqual(failed.nextAttemptAt, Date(timeIntervalSince1970: 1_795_428_400))

        // It goes on taking responses, once per instance.
        try store.insert(response("uuid:9c21-household", answers: [("name", "Again")]))
        try store.insert(response("uuid:new", answers: [("name", "Edsger")]))
        XCTAssertEqual(try store.responses(toForm: "household").map(\.instanceID).sorted(), ["uuid:9c21-household", "uuid:new"])
    }

    func testTheNewestResponsesComeWithTheCountOfAll() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        for (index, name) in ["Ada", "Grace", "Edsger"].enumerated() {
            try store.insert(response("uuid:n\(index)", answers: [("name", name)], at: TimeInterval(index)))
        }
        let read = try store.newestResponses(toForm: "household", limit: 2)
        XCTAssertEqual(read.newest.map { $0.answer(at: "name") }, ["Edsger", "Grace"])
        XCTAssertEqual(read.total, 3)
        let none = try store.newestResponses(toForm: "other", limit: 2)
        XCTAssertEqual(none.newest, [])
        XCTAssertEqual(none.total, 0)
    }

    func testTheExportHasAColumnPerQuestionInFormOrderAndRepeatsInstanceByInstance() throws {
        let form = try FormDefinition(data: Data("""
            | settings |
            |          | form_id   | version |
            |          | household | 3       |

            | survey |
            |        | type            | name    | label        |
            |        | text            | name    | Name         |
            |        | begin group     | home    | Home         |
            |        | integer         | rooms   | Rooms        |
            |        | note            | info    | Info         |
            |        | end group       |         |              |
            |        | begin repeat    | member  | Member       |
            |        | text            | who     | Who          |
            |        | integer         | age     | Age          |
            |        | end repeat      |         |              |
            |        | select_multiple pets | pets | Pets      |

            | choices |
            |         | list_name | name | label |
            |         | pets      | cat  | Cat   |
            |         | pets      | dog  | Dog   |
            """.utf8), fileName: "household.md")
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        try store.insert(response("uuid:a", answers: [
            ("name", "=HYPERLINK(\"x\")"), ("home/rooms", "4"),
            ("member[1]/who", "Ada"), ("member[1]/age", "36"), ("member[2]/who", "Bo"), ("member[2]/age", "7"),
            ("pets", "cat dog"),
        ]))
        try store.insert(response("uuid:b", answers: [("name", "Cy"), ("pets", "")], at: 100))
        let out = folder.url.appendingPathComponent("../household-\(UUID().uuidString).csv").standardizedFileURL
        defer { try? FileManager.default.removeItem(at: out) }
        XCTAssertEqual(try FormCSVExporter.write(form, from: store, to: out, replacing: false), 2)
        // Decoded by hand: String(contentsOf:) would drop the byte-order mark.
        let text = String(decoding: try Data(contentsOf: out), as: UTF8.self)
        let lines = text.dropFirst().split(separator: "\r\n").map(String.init)
        XCTAssertEqual(lines[0], "submitted_at,name,home-rooms,member[1]-who,member[1]-age,member[2]-who,member[2]-age,pets,instance_id,form_version,started_at")
        XCTAssertEqual(lines[1], "2023-11-14T22:14:20Z,\"'=HYPERLINK(\"\"x\"\")\",4,Ada,36,Bo,7,cat dog,uuid:a,3,2023-11-14T22:13:20Z")
        XCTAssertEqual(lines[2], "2023-11-14T22:16:00Z,Cy,,,,,,,uuid:b,3,2023-11-14T22:15:00Z")
        XCTAssertTrue(text.hasPrefix("\u{FEFF}"))
    }
}
