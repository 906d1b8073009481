import SurveySync
import XCTest

/// A password kept in the keyring goes only to a server whose certificate
/// is checked: `--insecure` hands it to whoever answers.
final class StoredPasswordTests: XCTestCase {
    private func settings(_ security: ServerSettings.Security, authority: String = "") -> ServerSettings {
        ServerSettings(host: "db.example.org", port: 5433, database: "survey_responses", user: "laptop_1",
                       security: security, certificateAuthority: authority)
    }

    func testAnUncheckedConnectionGetsNoStoredPasswordAndTheMessageSaysWhatToDo() throws {
        let problem = try XCTUnwrap(settings(.insecure).storedPasswordProblem)
        XCTAssertTrue(problem.contains("not sent to db.example.org:5433"), problem)
        XCTAssertTrue(problem.contains("--ask-password"), problem)
        XCTAssertTrue(problem.contains("--ca-file"), problem)
    }

    func testACheckedConnectionGetsIt() {
        XCTAssertNil(settings(.verifyFull).storedPasswordProblem)
        XCTAssertNil(settings(.verifyFull, authority: "/etc/ssl/team-ca.pem").storedPasswordProblem)
    }
}
