import Foundation
import SurveyStorage
import SurveySync
import XCTest

/// `verify-full` against a server whose certificate comes from an authority
/// of its own: refused with a reason and nothing lost until the authority is
/// set, then delivered; and the name in the certificate is checked too.
final class ServerCertificateTests: XCTestCase {
    nonisolated(unsafe) private static var server: TestServer?

    override class func setUp() {
        super.setUp()
        do {
            server = try TestServer(tls: true)
        } catch {
            XCTFail("\(error)")
        }
    }

    override class func tearDown() {
        server = nil
        super.tearDown()
    }

    private func server() throws -> TestServer {
        guard let server = Self.server else { throw TestServerError("no test server") }
        return server
    }

    override func setUp() async throws {
        let server = try server()
        try await ServerSchema.migrate(
            ServerSettings(host: "127.0.0.1", port: server.port, database: "survey_responses", user: "survey_form_admin",
                           security: .insecure),
            password: TestServer.adminPassword
        )
    }

    private func checkedSettings(host: String = "localhost", authority: String = "") throws -> ServerSettings {
        ServerSettings(host: host, port: try server().port, database: "survey_responses", user: "laptop_1",
                       security: .verifyFull, certificateAuthority: authority)
    }

    func testAnUntrustedCertificateIsRefusedPlainlyAndTheAuthoritysFileFixesIt() async throws {
        let server = try server()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ResponseStore(directory: folder)
        try store.insert(.survey(name: "Ada"))

        let refused = await OutboxSender(store: store, settings: try checkedSettings(), password: TestServer.collectorPassword)
            .sendDue()
        XCTAssertEqual(refused.sent, 0)
        XCTAssertEqual(refused.failure?.kind, .refusedLogin)
        let message = refused.failure?.message ?? ""
        XCTAssertTrue(message.contains("The secure connection to localhost:\(server.port) failed"), message)
        XCTAssertTrue(message.contains("certificate is not trusted"), message)
        XCTAssertTrue(message.contains("--ca-file"), "says what to do: \(message)")
        XCTAssertEqual(try store.deliverySummary().failed, 1, "nothing lost")

        let authority = try XCTUnwrap(server.certificateAuthority).path
        let fixed = await OutboxSender(store: store, settings: try checkedSettings(authority: authority),
                                       password: TestServer.collectorPassword).sendDue(ignoringBackoff: true)
        XCTAssertNil(fixed.failure, fixed.failure?.message ?? "")
        XCTAssertEqual(fixed.sent, 1)
        XCTAssertEqual(try server.sql("SELECT count(*) FROM survey_form.submissions")
            .trimmingCharacters(in: .whitespacesAndNewlines), "1")
    }

    func testATrustedCertificateForAnotherNameIsRefused() async throws {
        let authority = try XCTUnwrap(try server().certificateAuthority).path
        // The certificate names localhost; 127.0.0.1 reaches the same server.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ResponseStore(directory: folder)
        try store.insert(.survey(name: "Ada"))
        let report = await OutboxSender(store: store, settings: try checkedSettings(host: "127.0.0.1", authority: authority),
                                        password: TestServer.collectorPassword).sendDue()
        XCTAssertEqual(report.failure?.kind, .refusedLogin, report.failure?.message ?? "")
        XCTAssertTrue(report.failure?.message.contains("does not name it") ?? false, report.failure?.message ?? "")
        XCTAssertEqual(try store.deliverySummary().failed, 1)
    }

    func testAnUnreadableAuthorityFileIsSaidBeforeAnyTry() throws {
        let settings = try checkedSettings(authority: "/nonexistent/ca.pem")
        XCTAssertEqual(settings.problem, "The certificate authority file /nonexistent/ca.pem cannot be read.")
    }
}
