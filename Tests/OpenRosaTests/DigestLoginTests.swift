@testable import OpenRosa
import XCTest

/// Digest answers as RFC 2617's worked example computes them, and the
/// challenges servers write.
final class DigestLoginTests: XCTestCase {
    func testTheAnswerIsTheRFCsWorkedExample() throws {
        let header = #"Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41""#
        var (login, stale) = try XCTUnwrap(DigestLogin.challenge(in: ["Basic realm=\"x\"", header]))
        XCTAssertFalse(stale)
        XCTAssertEqual(login.qop, "auth")
        let answer = login.authorization(method: "GET", uri: "/dir/index.html", user: "Mufasa", password: "Circle Of Life", cnonce: "0a4f113b")
        XCTAssertTrue(answer.contains(#"response="6629fae49393a05397450978507c4ef1""#), answer)
        XCTAssertTrue(answer.contains("nc=00000001"), answer)
        XCTAssertTrue(answer.contains(#"opaque="5ccc069c403ebaf9f0171e9517f40e41""#), answer)
        XCTAssertFalse(answer.contains("Circle Of Life"))
        // The next request counts on.
        XCTAssertTrue(login.authorization(method: "GET", uri: "/", user: "Mufasa", password: "p").contains("nc=00000002"))
    }

    func testChallengesNotAnsweredAreLeftAlone() {
        XCTAssertNil(DigestLogin.challenge(in: ["Basic realm=\"OpenRosa\""]))
        XCTAssertNil(DigestLogin.challenge(in: [#"Digest realm="r", nonce="n", qop="auth-int""#]), "integrity only")
        XCTAssertNil(DigestLogin.challenge(in: [#"Digest realm="r", nonce="n", algorithm=SHA-512-256"#]))
        XCTAssertNil(DigestLogin.challenge(in: [#"Digest realm="r""#]), "no nonce")
        let stale = DigestLogin.challenge(in: [#"Digest realm="a, \"b\"", nonce="n2", stale=TRUE, algorithm=SHA-256"#])
        XCTAssertEqual(stale?.stale, true)
        XCTAssertEqual(stale?.login.realm, #"a, "b""#)
        XCTAssertEqual(stale?.login.algorithm, "SHA-256")
        XCTAssertNil(stale?.login.qop, "RFC 2069's form")
    }
}

/// What every request carries.
final class RequestHeaderTests: XCTestCase {
    func testTheDateIsHTTPsWhateverTheLocale() {
        XCTAssertEqual(OpenRosaClient.httpDate(Date(timeIntervalSince1970: 1_796_325_600)), "Thu, 03 Dec 2026 19:20:00 GMT")
        XCTAssertEqual(OpenRosaClient.httpDate(Date(timeIntervalSince1970: 0)), "Thu, 01 Jan 1970 00:00:00 GMT")
    }
}
