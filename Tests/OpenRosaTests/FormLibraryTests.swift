import Foundation
@testable import OpenRosa
import XCTest

/// The form library's own bookkeeping: which server a form file came from,
/// where a listed form stands here, and what is refused before it is kept.
final class FormLibraryTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("form-library-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    func testAFormFileKnowsItsServerAndNoOtherFileDoes() throws {
        let library = FormLibrary(directory: root.appendingPathComponent("forms"))
        let central = try OpenRosaServer("https://central.example.org/v1/key/SECRET/projects/3", user: "")
        let kobo = try OpenRosaServer("https://kc.example.org/team", user: "enumerator")
        XCTAssertNotEqual(library.folder(for: central), library.folder(for: kobo))
        XCTAssertFalse(library.folder(for: central).lastPathComponent.contains("SECRET"), "a key is never a folder's name")
        XCTAssertTrue(library.folder(for: central).lastPathComponent.hasPrefix("central.example.org-"))

        for server in [central, kobo] {
            let folder = library.folder(for: server)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let record = try JSONEncoder().encode(["url": server.url.absoluteString, "user": server.user])
            try record.write(to: folder.appendingPathComponent(FormLibrary.serverRecord))
        }
        let file = library.folder(for: kobo).appendingPathComponent("household/0cc175b9c0f1b6a831c399e269772661/household.xml")
        XCTAssertEqual(library.server(forFormAt: file), kobo)
        XCTAssertEqual(library.server(forFormAt: file)?.user, "enumerator")
        XCTAssertNil(library.server(forFormAt: root.appendingPathComponent("elsewhere/household.xml")))
        XCTAssertNil(library.server(forFormAt: library.directory.appendingPathComponent("../forms-not/x.xml")))
        XCTAssertEqual(Set(library.servers.map(\.url)), [central.url, kobo.url])
    }

    func testALoginChangesForTheServerItsFormsCameFromOnly() throws {
        let library = FormLibrary(directory: root.appendingPathComponent("forms"))
        let authority = root.appendingPathComponent("team-ca.pem")
        try Data("-----BEGIN CERTIFICATE-----\n".utf8).write(to: authority)
        let server = try OpenRosaServer("https://kc.example.org/team", user: "enumerator", certificateAuthority: authority.path)
        XCTAssertThrowsError(try library.changeLogin(of: server, user: "supervisor", certificateAuthority: authority.path), "no form came from it") {
            XCTAssertTrue($0.localizedDescription.contains("No form here came from https://kc.example.org/team"), $0.localizedDescription)
        }
        XCTAssertEqual(library.servers, [])
        let folder = library.folder(for: server)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try JSONEncoder().encode(["url": server.url.absoluteString, "user": server.user, "ca": server.certificateAuthority])
            .write(to: folder.appendingPathComponent(FormLibrary.serverRecord))

        let changed = try library.changeLogin(of: server, user: "supervisor", certificateAuthority: authority.path)
        XCTAssertEqual(changed.user, "supervisor")
        XCTAssertEqual(library.server(at: server.url.absoluteString)?.user, "supervisor", "its responses go with the new login")
        XCTAssertEqual(library.server(at: server.url.absoluteString)?.certificateAuthority, authority.path, "the rest is kept")
        XCTAssertEqual(library.folder(for: changed), folder, "the same server, the same folder")
        let mode = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(FormLibrary.serverRecord).path)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o600)
    }

    func testAServerWhoseAuthorityFileWentIsStillListed_sendingSaysSo_andANewFileIsRecorded() async throws {
        let library = FormLibrary(directory: root.appendingPathComponent("forms"))
        let authority = root.appendingPathComponent("team-ca.pem")
        try Data("-----BEGIN CERTIFICATE-----\n".utf8).write(to: authority)
        let server = try OpenRosaServer("https://kc.example.org/team", user: "enumerator", certificateAuthority: authority.path)
        let folder = library.folder(for: server)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try JSONEncoder().encode(["url": server.url.absoluteString, "user": server.user, "ca": server.certificateAuthority])
            .write(to: folder.appendingPathComponent(FormLibrary.serverRecord))
        // The team's file moved since the forms were downloaded.
        let moved = root.appendingPathComponent("moved-ca.pem")
        try FileManager.default.moveItem(at: authority, to: moved)

        let listed = try XCTUnwrap(library.server(at: server.url.absoluteString))
        XCTAssertEqual(listed.user, "enumerator", "still the library's server, with its login")
        XCTAssertEqual(listed.certificateAuthority, authority.path)
        XCTAssertEqual(library.servers, [listed])
        do {
            _ = try await OpenRosaClient.with(listed, password: nil) { try await $0.formList() }
            XCTFail("nothing may be sent without the authority's file")
        } catch let error as OpenRosaError {
            XCTAssertEqual(error.kind, .certificate, "the server's row in Preferences is where it is mended")
            XCTAssertEqual(error.message, "The certificate authority file \(authority.path) cannot be read.")
        }

        XCTAssertThrowsError(try library.changeLogin(of: listed, user: "enumerator",
                                                     certificateAuthority: root.appendingPathComponent("typo.pem").path)) {
            XCTAssertTrue($0.localizedDescription.contains("typo.pem cannot be read"), $0.localizedDescription)
        }
        XCTAssertEqual(library.server(at: server.url.absoluteString)?.certificateAuthority, authority.path, "a refused file changes nothing")
        let changed = try library.changeLogin(of: listed, user: "enumerator", certificateAuthority: moved.path)
        XCTAssertEqual(changed.certificateAuthority, moved.path)
        XCTAssertEqual(library.server(at: server.url.absoluteString)?.certificateAuthority, moved.path)
        XCTAssertNil(library.server(at: server.url.absoluteString)?.certificateAuthorityProblem)
    }

    func testAListedFormIsAbsentOutdatedOrCurrentByItsHash() throws {
        let library = FormLibrary(directory: root)
        let server = try OpenRosaServer("https://kc.example.org/team")
        let form = ServerForm(
            formID: "household", name: "Household", version: "2", hash: "md5:0cc175b9c0f1b6a831c399e269772661",
            downloadURL: URL(string: "https://kc.example.org/team/forms/household.xml")!, manifestURL: nil
        )
        XCTAssertEqual(library.state(of: form, from: server), .absent)
        let formFolder = library.folder(for: form, from: server)
        let older = formFolder.appendingPathComponent("92eb5ffee6ae2fec3ad71c777531578f")
        try FileManager.default.createDirectory(at: older, withIntermediateDirectories: true)
        XCTAssertEqual(library.state(of: form, from: server), .outdated)
        // A download under way (a hidden folder) is no version yet.
        let incoming = formFolder.appendingPathComponent(".incoming-0cc175b9c0f1b6a831c399e269772661")
        try FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true)
        try Data("<h:html/>".utf8).write(to: incoming.appendingPathComponent("household.xml"))
        XCTAssertEqual(library.state(of: form, from: server), .outdated)
        let current = formFolder.appendingPathComponent("0cc175b9c0f1b6a831c399e269772661")
        try FileManager.default.createDirectory(at: current, withIntermediateDirectories: true)
        try Data("<h:html/>".utf8).write(to: current.appendingPathComponent("household.xml"))
        XCTAssertEqual(library.state(of: form, from: server), .current(current.appendingPathComponent("household.xml")))
        XCTAssertEqual(library.versions(in: formFolder).count, 2)
    }

    func testAFormThatEncryptsItsResponsesIsKnownByItsSubmissionsKey() {
        let sealed = """
        <h:html xmlns:h="http://www.w3.org/1999/xhtml" xmlns="http://www.w3.org/2002/xforms"><h:head><model>
        <instance><data id="a"/></instance>
        <submission method="post" base64RsaPublicKey="MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"/>
        </model></h:head><h:body/></h:html>
        """
        XCTAssertEqual(FormLibrary.publicKey(in: Data(sealed.utf8)), "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA")
        XCTAssertNil(SubmissionEnvelope.rsaKey("MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"), "a cut key is no key")
        XCTAssertNil(FormLibrary.publicKey(in: Data(sealed.replacingOccurrences(of: "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA", with: " ").utf8)))
        XCTAssertNil(FormLibrary.publicKey(in: Data(sealed.replacingOccurrences(of: "base64RsaPublicKey", with: "action").utf8)))
        XCTAssertNil(FormLibrary.publicKey(in: Data("not xml".utf8)))
    }
}
