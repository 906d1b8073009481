import FormEngine
import Foundation
import SurveyStorage
import SurveySync
import XCTest

/// Delivery to a real PostgreSQL server of the tests' own.
final class OutboxSenderTests: XCTestCase {
    nonisolated(unsafe) private static var server: TestServer?
    private var folders: [URL] = []

    override class func setUp() {
        super.setUp()
        do {
            server = try TestServer()
        } catch {
            // Every test then fails on `server()` with this reason.
            XCTFail("\(error)")
        }
    }

    override class func tearDown() {
        server = nil
        super.tearDown()
    }

    override func setUp() async throws {
        let server = try server()
        try await ServerSchema.migrate(server.adminSettings, password: TestServer.adminPassword)
        try server.sql("TRUNCATE survey_form.attachments, survey_form.submissions, survey_form.batches")
    }

    override func tearDown() {
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
        folders = []
    }

    func server() throws -> TestServer {
        guard let server = Self.server else { throw TestServerError("no test server") }
        return server
    }

    func makeStore() throws -> ResponseStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)")
        folders.append(folder)
        return try ResponseStore(directory: folder)
    }

    private func sender(_ store: ResponseStore, user: String = "laptop_1", password: String? = TestServer.collectorPassword) throws -> OutboxSender {
        OutboxSender(store: store, settings: try server().settings(user: user), password: password)
    }

    func serverCount(_ condition: String = "true") throws -> Int {
        Int(try server().sql("SELECT count(*) FROM survey_form.submissions WHERE \(condition)")
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    func surveyResponse(_ name: String, salary: String = "85000") -> FormResponse {
        .survey(name: name, company: "Acme", years: "12.5", isCurrentEmployer: true, salary: salary,
                comments: "line one\nline \"two\"", submittedAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    func formResponse(_ instanceID: String = "uuid:" + UUID().uuidString.lowercased()) -> FormResponse {
        FormResponse(formID: "household", formVersion: "2024-01", instanceID: instanceID,
                     startedAt: Date(timeIntervalSince1970: 1_700_000_000),
                     submittedAt: Date(timeIntervalSince1970: 1_700_000_060),
                     answers: [.init(path: "members[1]/name", value: "Zoë"), .init(path: "size", value: "3")])
    }

    // MARK: - Schema

    func testSetUpIsVersionedAndRunsEachStepOnce() async throws {
        let server = try server()
        let before = try await ServerSchema.migrate(server.adminSettings, password: TestServer.adminPassword)
        XCTAssertEqual(before, ServerSchema.current, "setUp migrated already; a second run has nothing to do")
        XCTAssertEqual(try server.sql("SELECT count(*) FROM survey_form.schema_version").trimmingCharacters(in: .whitespacesAndNewlines),
                       String(ServerSchema.current))
    }

    func testAServerWithoutTheSchemaIsReportedWithWhatToDo() async throws {
        let server = try server()
        try server.sql("CREATE DATABASE empty OWNER survey_form_admin")
        defer { _ = try? server.sql("DROP DATABASE empty", database: "postgres") }
        try server.sql("GRANT CONNECT ON DATABASE empty TO survey_form_collectors", database: "postgres")
        let store = try makeStore()
        try store.insert(surveyResponse("Ada"))
        var settings = server.settings()
        settings.database = "empty"
        let report = await OutboxSender(store: store, settings: settings, password: TestServer.collectorPassword).sendDue()
        XCTAssertEqual(report.sent, 0)
        XCTAssertEqual(report.failure?.kind, .schema)
        XCTAssertTrue(report.failure?.message.contains("--server-setup") ?? false, report.failure?.message ?? "")
        XCTAssertEqual(try store.deliverySummary().failed, 1, "kept, to be sent once the server is set up")
    }

    // MARK: - Delivery

    func testQueuedResponsesAreDeliveredOnceAndStayStoredLocally() async throws {
        let store = try makeStore()
        for name in ["Ada", "Grace", "Linus"] { try store.insert(surveyResponse(name)) }
        try store.insert(formResponse())
        try store.insert(formResponse())
        XCTAssertEqual(try store.deliverySummary().waiting, 5)

        let report = try await sender(store).sendDue()
        XCTAssertNil(report.failure)
        XCTAssertEqual(report.sent, 5)
        XCTAssertEqual(try serverCount(), 5)
        XCTAssertEqual(try serverCount("form_id = 'survey_form' AND form_version = '1'"), 3)
        XCTAssertEqual(try serverCount("form_id = 'household' AND started_at IS NOT NULL"), 2)
        XCTAssertEqual(try serverCount("device_id = '\(try store.deviceID())' AND submitted_by = 'laptop_1'"), 5)
        let summary = try store.deliverySummary()
        XCTAssertEqual(summary.queued, 0)
        XCTAssertEqual(summary.sent, 5)
        XCTAssertEqual(try store.count(), 5, "sending deletes nothing")
        XCTAssertEqual(try store.responses(toForm: "survey_form").count, 3)
        XCTAssertEqual(try store.responses(toForm: "household").count, 2)

        let again = try await sender(store).sendDue(ignoringBackoff: true)
        XCTAssertEqual(again.sent, 0, "nothing is due")
        XCTAssertEqual(try serverCount(), 5)
    }

    func testAnEditReachesTheServerAsARevisionAfterTheResponseItReplaces_andTheExportReadsTheCurrentOne() async throws {
        let store = try makeStore()
        let first = try store.insert(formResponse("uuid:rev-1"))
        var edit = formResponse("uuid:rev-2")
        edit.answers = [.init(path: "members[1]/name", value: "Zoë K."), .init(path: "size", value: "4")]
        edit.deprecatedID = first.instanceID
        try store.insert(edit)

        // One round sends both, the replaced revision first.
        let report = try await sender(store).sendDue()
        XCTAssertNil(report.failure)
        XCTAssertEqual(report.sent, 2)
        XCTAssertEqual(try server().sql("""
            SELECT instance_id || ':' || COALESCE(deprecated_id, '-') FROM survey_form.submissions
            WHERE form_id = 'household' ORDER BY received_at, instance_id
            """).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty },
            ["uuid:rev-1:-", "uuid:rev-2:uuid:rev-1"])

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
        folders.append(folder)
        let files = try await ServerExport.write(server().settings(user: "results"), password: TestServer.collectorPassword,
                                                into: folder, replacing: false)
        XCTAssertEqual(files.map(\.responses), [1], "the current revision only")
        let csv = try String(contentsOf: files[0].url, encoding: .utf8)
        XCTAssertTrue(csv.contains("uuid:rev-2") && !csv.contains("uuid:rev-1"), csv)
    }

    func testTheServerHoldsTheAnswersAsTheyWereGiven() async throws {
        let store = try makeStore()
        let stored = try store.insert(surveyResponse("Zoë \"Z\" O'Neil", salary: ""))
        let form = try store.insert(formResponse())
        _ = try await sender(store).sendDue()

        let json = try server().sql("SELECT answers::text FROM survey_form.submissions WHERE instance_id = '\(stored.instanceID)'")
        XCTAssertEqual(AnswersJSON.formAnswers(from: json), [
            .init(path: "approx_salary", value: ""), .init(path: "comments", value: "line one\nline \"two\""),
            .init(path: "company", value: "Acme"), .init(path: "current_employer", value: "OK", kind: .boolean),
            .init(path: "name", value: "Zoë \"Z\" O'Neil"), .init(path: "years_of_experience", value: "12.5", kind: .number),
        ], "read back by key, typed as they went")
        XCTAssertTrue(json.contains("\"approx_salary\": null"), json)
        XCTAssertEqual(try server().sql("""
            SELECT jsonb_typeof(answers->'years_of_experience') || ',' || jsonb_typeof(answers->'current_employer')
            FROM survey_form.submissions WHERE instance_id = '\(stored.instanceID)'
            """).trimmingCharacters(in: .whitespacesAndNewlines), "number,boolean")
        XCTAssertEqual(try server().sql("""
            SELECT answers->>'members[1]/name' || ',' || (answers->>'size') FROM survey_form.submissions
            WHERE instance_id = '\(form.instanceID)'
            """).trimmingCharacters(in: .whitespacesAndNewlines), "Zoë,3")
        XCTAssertEqual(try server().sql("""
            SELECT to_char(submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') FROM survey_form.submissions
            WHERE instance_id = '\(form.instanceID)'
            """).trimmingCharacters(in: .whitespacesAndNewlines), "2023-11-14 22:14:20")
    }

    func testABatchSentAgainAfterALostAcknowledgementIsStoredOnce() async throws {
        let store = try makeStore()
        for name in ["Ada", "Grace"] { try store.insert(surveyResponse(name)) }
        _ = try await sender(store).sendDue()
        XCTAssertEqual(try serverCount(), 2)
        // The server committed, and the sender was killed before it heard
        // so: the rows are left claimed, their lease run out.
        let ids = try store.responses(toForm: "survey_form").map(\.instanceID)
        try store._setDelivery(ids, state: .sending, nextAttemptAt: Date().addingTimeInterval(-1))
        let report = try await sender(store).sendDue()
        XCTAssertNil(report.failure)
        XCTAssertEqual(report.sent, 2)
        XCTAssertEqual(try serverCount(), 2, "resent, stored once")
        XCTAssertEqual(try server().sql("SELECT count(*) FROM survey_form.batches").trimmingCharacters(in: .whitespacesAndNewlines), "2",
                       "each batch is recorded, the second having added nothing")
        XCTAssertEqual(try store.deliverySummary().sent, 2)
    }

    func testAResponsesFiles_goWithIt_once_andAMissingOneHoldsNothingUp() async throws {
        let store = try makeStore()
        let files = AttachmentStore(directory: store.url.deletingLastPathComponent())
        let instanceID = "uuid:" + UUID().uuidString.lowercased()
        let photo = try files.add(Data([0xFF, 0xD8, 0xFF, 0x00, 0x01]), fileExtension: "jpg", instanceID: instanceID)
        let scan = try files.add(Data("%PDF".utf8), fileExtension: "pdf", instanceID: instanceID)
        try store.insert(FormResponse(
            formID: "household", formVersion: "2024-01", instanceID: instanceID,
            startedAt: Date(timeIntervalSince1970: 1_700_000_000), submittedAt: Date(timeIntervalSince1970: 1_700_000_060),
            answers: [
                .init(path: "photo", value: photo, kind: .attachment),
                .init(path: "scan", value: scan, kind: .attachment),
                .init(path: "gone", value: "1.wav", kind: .attachment),
                .init(path: "none", value: "", kind: .attachment),
            ]
        ))
        let report = try await sender(store).sendDue()
        XCTAssertNil(report.failure)
        XCTAssertEqual(report.sent, 1)
        XCTAssertEqual(try server().sql("""
            SELECT string_agg(name || '=' || encode(content, 'hex'), ',' ORDER BY name) FROM survey_form.attachments
            WHERE instance_id = '\(instanceID)' AND submitted_by = 'laptop_1'
            """).trimmingCharacters(in: .whitespacesAndNewlines), "\(photo)=ffd8ff0001,\(scan)=25504446")
        XCTAssertEqual(try server().sql("""
            SELECT answers->>'photo' || ',' || (answers->>'gone') FROM survey_form.submissions WHERE instance_id = '\(instanceID)'
            """).trimmingCharacters(in: .whitespacesAndNewlines), "\(photo),1.wav", "the answers name the files as on the laptop")

        // Sent again after a lost acknowledgement: the server has them once.
        try store._setDelivery([instanceID], state: .sending, nextAttemptAt: Date().addingTimeInterval(-1))
        let again = try await sender(store).sendDue()
        XCTAssertNil(again.failure)
        XCTAssertEqual(try server().sql("SELECT count(*) FROM survey_form.attachments").trimmingCharacters(in: .whitespacesAndNewlines), "2")
    }

    func testTwoLaptopsSendingOneResponseStoreItOnce() async throws {
        let shared = formResponse()
        let first = try makeStore(), second = try makeStore()
        try first.insert(shared)
        try second.insert(shared)
        XCTAssertNotEqual(try first.deviceID(), try second.deviceID())
        _ = try await sender(first).sendDue()
        let report = try await sender(second, user: "laptop_2").sendDue()
        XCTAssertNil(report.failure)
        XCTAssertEqual(report.sent, 1, "the server holds it: sent")
        XCTAssertEqual(try serverCount(), 1)
    }

    func testAServerThatIsDownKeepsTheResponsesQueuedUntilItIsBack() async throws {
        let server = try server()
        let store = try makeStore()
        try store.insert(surveyResponse("Ada"))
        server.stop()
        let down = try await sender(store).sendDue()
        try server.start()
        XCTAssertEqual(down.sent, 0)
        XCTAssertEqual(down.failure?.kind, .unreachable)
        XCTAssertTrue(down.failure?.message.contains("cannot be reached") ?? false, down.failure?.message ?? "")
        let summary = try store.deliverySummary()
        XCTAssertEqual(summary.failed, 1)
        XCTAssertEqual(summary.lastError, down.failure?.message)
        XCTAssertGreaterThan(summary.nextAttemptAt ?? .distantPast, Date(), "a retry waits")

        let early = try await sender(store).sendDue()
        XCTAssertEqual(early.sent, 0, "not before the back-off is over")
        let later = try await sender(store).sendDue(now: { Date().addingTimeInterval(3600) })
        XCTAssertNil(later.failure)
        XCTAssertEqual(later.sent, 1)
        XCTAssertEqual(try store.delivery(of: try store.responses(toForm: "survey_form")[0].instanceID)?.attempts, 2)
    }

    func testAWrongPasswordIsSaidPlainlyAndLosesNothing() async throws {
        let store = try makeStore()
        try store.insert(surveyResponse("Ada"))
        let report = try await sender(store, password: "wrong").sendDue()
        XCTAssertEqual(report.failure?.kind, .refusedLogin)
        XCTAssertTrue(report.failure?.message.contains("refused the login of laptop_1") ?? false, report.failure?.message ?? "")
        XCTAssertEqual(try store.count(), 1)
        let fixed = try await sender(store).sendDue(ignoringBackoff: true)
        XCTAssertEqual(fixed.sent, 1)
    }

    func testSendNowTakesResponsesWaitingOutABackOff() async throws {
        let store = try makeStore()
        try store.insert(surveyResponse("Ada"))
        _ = try await sender(store, password: "wrong").sendDue()
        let waiting = try await sender(store).sendDue()
        XCTAssertEqual(waiting.sent, 0)
        let forced = try await sender(store).sendDue(ignoringBackoff: true)
        XCTAssertEqual(forced.sent, 1)
    }

    func testARefusedResponseHoldsUpNoOther() async throws {
        let server = try server()
        // A rule the server's administrator added: no form named "blocked".
        try server.sql("ALTER TABLE survey_form.submissions ADD CONSTRAINT no_blocked CHECK (form_id <> 'blocked')")
        defer { _ = try? server.sql("ALTER TABLE survey_form.submissions DROP CONSTRAINT no_blocked") }
        let store = try makeStore()
        var blocked = formResponse()
        blocked.formID = "blocked"
        try store.insert(surveyResponse("Ada"))
        let refused = try store.insert(blocked)
        try store.insert(surveyResponse("Grace"))
        let report = try await sender(store).sendDue()
        XCTAssertEqual(report.sent, 2)
        XCTAssertEqual(report.failure?.kind, .refused)
        let delivery = try store.delivery(of: refused.instanceID)
        XCTAssertEqual(delivery?.state, .failed)
        XCTAssertTrue(delivery?.lastError?.contains("no_blocked") ?? false, delivery?.lastError ?? "")
        XCTAssertEqual(try serverCount(), 2)
        // Send Now tries it once more, and the round ends.
        let forced = try await sender(store).sendDue(ignoringBackoff: true)
        XCTAssertEqual(forced.sent, 0)
        XCTAssertEqual(forced.failure?.kind, .refused)
        XCTAssertEqual(try store.delivery(of: refused.instanceID)?.attempts, 2)
    }

    func testAResponseChangedWhileQueuedGoesAsChanged() async throws {
        let store = try makeStore()
        let first = try store.insert(formResponse())
        let removed = try store.deleteResponse(id: first.id!)
        var changed = try XCTUnwrap(removed)
        changed.id = nil
        changed.answers = [.init(path: "size", value: "4")]
        try store.insert(changed)
        _ = try await sender(store).sendDue()
        XCTAssertEqual(try server().sql("SELECT answers->>'size' FROM survey_form.submissions")
            .trimmingCharacters(in: .whitespacesAndNewlines), "4")
    }

    // MARK: - Least privilege

    func testACollectorReadsOnlyItsOwnRowsAndCannotChangeAny() async throws {
        let first = try makeStore(), second = try makeStore()
        try first.insert(surveyResponse("Ada"))
        try second.insert(surveyResponse("Grace"))
        _ = try await sender(first).sendDue()
        _ = try await sender(second, user: "laptop_2").sendDue()
        let server = try server()
        func asLaptop(_ statement: String) throws -> String {
            try server.sql("SET ROLE laptop_1; \(statement)")
        }
        XCTAssertEqual(try asLaptop("SELECT count(*) FROM survey_form.submissions").trimmingCharacters(in: .whitespacesAndNewlines), "1")
        XCTAssertThrowsError(try asLaptop("DELETE FROM survey_form.submissions"))
        XCTAssertThrowsError(try asLaptop("UPDATE survey_form.submissions SET answers = '{}'"))
        XCTAssertThrowsError(try asLaptop("CREATE TABLE survey_form.other (x int)"))
        XCTAssertEqual(try server.sql("SET ROLE results; SELECT count(*) FROM survey_form.submissions")
            .trimmingCharacters(in: .whitespacesAndNewlines), "2")
        XCTAssertThrowsError(try server.sql("SET ROLE results; DELETE FROM survey_form.submissions"))
    }

    // MARK: - Forms and the export from the server

    private static let householdForm = """
        | settings |
        |          | form_id   | version |
        |          | household | 2024-01 |

        | survey |
        |        | type         | name    | label   |
        |        | integer      | size    | Size    |
        |        | begin_repeat | members | Members |
        |        | text         | name    | Name    |
        |        | end_repeat   |         |         |
        """

    func testPublishingAFormIsIdempotentAndAChangedFileNeedsANewVersion() async throws {
        let server = try server()
        try server.sql("TRUNCATE survey_form.forms")
        let data = Data(Self.householdForm.utf8)
        let definition = try FormDefinition(data: data, fileName: "household.md")
        do {
            _ = try await ServerForms.publish(server.settings(), password: TestServer.collectorPassword,
                                              definition: definition, data: data, fileName: "household.md")
            XCTFail("a collector's login cannot publish a form")
        } catch let error as SyncError {
            XCTAssertTrue(error.message.contains("may not publish forms"), error.message)
        }
        let settings = server.adminSettings
        let first = try await ServerForms.publish(settings, password: TestServer.adminPassword,
                                                  definition: definition, data: data, fileName: "household.md")
        XCTAssertTrue(first)
        let again = try await ServerForms.publish(settings, password: TestServer.adminPassword,
                                                  definition: definition, data: data, fileName: "household.md")
        XCTAssertFalse(again, "the same file again changes nothing")
        let changed = Data((Self.householdForm + "\n").utf8)
        do {
            _ = try await ServerForms.publish(settings, password: TestServer.adminPassword,
                                              definition: definition, data: changed, fileName: "household.md")
            XCTFail("a changed file under the same version is refused")
        } catch let error as SyncError {
            XCTAssertTrue(error.message.contains("Give the changed form a new version"), error.message)
        }
        XCTAssertEqual(try server.sql("SELECT count(*) FROM survey_form.forms").trimmingCharacters(in: .whitespacesAndNewlines), "1")
    }

    func testTheServersExportIsAFilePerFormVersionWrittenAsALaptopWritesIt() async throws {
        let server = try server()
        try server.sql("TRUNCATE survey_form.forms")
        let store = try makeStore()
        for (index, name) in ["Ada", "=Grace"].enumerated() {
            var response = surveyResponse(name)
            response.submittedAt = Date(timeIntervalSince1970: 1_700_000_000 + Double(index))
            try store.insert(response)
        }
        try store.insert(formResponse())
        var older = formResponse()
        older.formVersion = "2023-12"
        try store.insert(older)
        _ = try await sender(store).sendDue()
        let data = Data(Self.householdForm.utf8)
        _ = try await ServerForms.publish(server.adminSettings, password: TestServer.adminPassword,
                                          definition: try FormDefinition(data: data, fileName: "household.md"),
                                          data: data, fileName: "household.md")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
        folders.append(folder)
        let survey = try SurveyFormFile.definition()
        let files = try await ServerExport.write(server.settings(user: "results"), password: TestServer.collectorPassword,
                                                into: folder, replacing: false, knownForms: [survey])
        XCTAssertEqual(files.map(\.url.lastPathComponent), ["household-v2023-12.csv", "household-v2024-01.csv", "survey_form-v1.csv"])
        XCTAssertEqual(files.map(\.responses), [1, 1, 2])

        let local = folder.appendingPathComponent("local.csv")
        try FormCSVExporter.write(survey, from: store, to: local, replacing: false)
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("survey_form-v1.csv")), try Data(contentsOf: local),
                       "the server's export of the built-in survey is the laptop's, byte for byte")

        let published = try String(contentsOf: folder.appendingPathComponent("household-v2024-01.csv"), encoding: .utf8)
        XCTAssertTrue(published.hasPrefix("submitted_at,size,members[1]-name,instance_id,form_version,started_at\r\n"),
                      "a published form's columns in form order: \(published)")
        XCTAssertTrue(published.contains(",3,Zoë,uuid:"), published)
        let unpublished = try String(contentsOf: folder.appendingPathComponent("household-v2023-12.csv"), encoding: .utf8)
        XCTAssertTrue(unpublished.hasPrefix("submitted_at,members[1]-name,size,"),
                      "without its file, the paths in alphabetical order: \(unpublished)")

        // Without the survey's file, its answers' names in alphabetical order, still typed.
        let unknown = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
        folders.append(unknown)
        _ = try await ServerExport.write(server.settings(user: "results"), password: TestServer.collectorPassword,
                                         into: unknown, replacing: false)
        let alphabetical = try String(contentsOf: unknown.appendingPathComponent("survey_form-v1.csv"), encoding: .utf8)
        XCTAssertTrue(alphabetical.hasPrefix(
            "submitted_at,approx_salary,comments,company,current_employer,name,years_of_experience,instance_id,"), alphabetical)
        XCTAssertTrue(alphabetical.contains(",85000,\"line one\nline \"\"two\"\"\",Acme,true,Ada,12.5,uuid:"), alphabetical)

        do {
            _ = try await ServerExport.write(server.settings(user: "results"), password: TestServer.collectorPassword,
                                             into: folder, replacing: false)
            XCTFail("an export does not replace files unless told to")
        } catch let error as StorageError {
            XCTAssertEqual(error.code, .fileExists)
        }
    }
}
