import Foundation
@testable import OpenRosa
import XCTest

/// What a server says, read as the client reads it: form lists and
/// manifests as Central, KoboToolbox and Ona write them, and the ones no
/// server should write.
final class OpenRosaDocumentsTests: XCTestCase {
    private let list = URL(string: "https://central.example.org/v1/key/abc/projects/3/formList")!

    func testAFormListReadsAsCentralWritesIt() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <xforms xmlns="http://openrosa.org/xforms/xformsList">
          <xform>
            <formID>household_2026</formID>
            <name>Household &amp; health</name>
            <version>2026112701</version>
            <hash>md5:0cc175b9c0f1b6a831c399e269772661</hash>
            <downloadUrl>https://central.example.org/v1/key/abc/projects/3/forms/household_2026.xml</downloadUrl>
            <manifestUrl>https://central.example.org/v1/key/abc/projects/3/forms/household_2026/manifest</manifestUrl>
          </xform>
          <xform>
            <formID>tiny</formID>
            <name></name>
            <version></version>
            <hash>md5:92eb5ffee6ae2fec3ad71c777531578f</hash>
            <downloadUrl>forms/tiny.xml</downloadUrl>
          </xform>
        </xforms>
        """
        let forms = try OpenRosaDocuments.formList(Data(xml.utf8), from: list, server: "central")
        XCTAssertEqual(forms.count, 2)
        XCTAssertEqual(forms[0].formID, "household_2026")
        XCTAssertEqual(forms[0].name, "Household & health")
        XCTAssertEqual(forms[0].version, "2026112701")
        XCTAssertEqual(forms[0].md5, "0cc175b9c0f1b6a831c399e269772661")
        XCTAssertEqual(forms[0].manifestURL?.lastPathComponent, "manifest")
        // An empty name is the id; an empty version none; a relative address the list's.
        XCTAssertEqual(forms[1].name, "tiny")
        XCTAssertNil(forms[1].version)
        XCTAssertNil(forms[1].manifestURL)
        XCTAssertEqual(forms[1].downloadURL.absoluteString, "https://central.example.org/v1/key/abc/projects/3/forms/tiny.xml")
    }

    func testAWebPageOrNonsenseIsNamedAsNotAServer() {
        let page = Data("<!DOCTYPE html><html><head><title>Sign in</title></head><body>Sign in</body></html>".utf8)
        XCTAssertThrowsError(try OpenRosaDocuments.formList(page, from: list, server: "central")) { error in
            let error = error as? OpenRosaError
            XCTAssertEqual(error?.kind, .notOpenRosa)
            XCTAssertTrue(error?.message.contains("sent a web page") == true, error?.message ?? "")
        }
        for nonsense in ["", "{\"forms\": []}", "<xforms><xform>", "<manifest/>"] {
            XCTAssertThrowsError(try OpenRosaDocuments.formList(Data(nonsense.utf8), from: list, server: "central"), nonsense) {
                XCTAssertEqual(($0 as? OpenRosaError)?.kind, .notOpenRosa)
            }
        }
        let missingAddress = "<xforms><xform><formID>a</formID><downloadUrl>file:///etc/passwd</downloadUrl></xform></xforms>"
        XCTAssertThrowsError(try OpenRosaDocuments.formList(Data(missingAddress.utf8), from: list, server: "central"))
    }

    func testAManifestNamesOnlyPlainFilesEachOnceWithAHash() throws {
        func manifest(_ files: [(String, String)]) -> Data {
            let entries = files.map { "<mediaFile><filename>\($0.0)</filename><hash>\($0.1)</hash><downloadUrl>media/\($0.0)</downloadUrl></mediaFile>" }
            return Data(("<manifest xmlns=\"http://openrosa.org/xforms/xformsManifest\">" + entries.joined() + "</manifest>").utf8)
        }
        let hash = "md5:d41d8cd98f00b204e9800998ecf8427e"
        let files = try OpenRosaDocuments.manifest(manifest([("logo.png", hash), ("itemsets.csv", hash)]), from: list, form: "f", server: "s")
        XCTAssertEqual(files.map(\.fileName), ["logo.png", "itemsets.csv"])
        XCTAssertEqual(files[0].md5, "d41d8cd98f00b204e9800998ecf8427e")
        XCTAssertEqual(files[0].downloadURL.absoluteString, "https://central.example.org/v1/key/abc/projects/3/media/logo.png")

        for (name, hash) in [("../../.bashrc", hash), (".hidden", hash), ("a/b.png", hash), ("", hash), ("ok.png", "md5:xyz"), ("ok.png", "")] {
            XCTAssertThrowsError(try OpenRosaDocuments.manifest(manifest([(name, hash)]), from: list, form: "f", server: "s"), name) {
                XCTAssertEqual(($0 as? OpenRosaError)?.kind, .notOpenRosa)
            }
        }
        // Twice, in letters a case-insensitive file system would take for one.
        XCTAssertThrowsError(try OpenRosaDocuments.manifest(manifest([("Logo.png", hash), ("logo.PNG", hash)]), from: list, form: "f", server: "s"))
    }

    func testAServersOwnMessageIsReadFromItsResponse() {
        let answer = """
        <OpenRosaResponse xmlns="http://openrosa.org/http/response"><message nature="error">Form is not accepting submissions.</message></OpenRosaResponse>
        """
        XCTAssertEqual(OpenRosaDocuments.responseMessage(Data(answer.utf8)), "Form is not accepting submissions.")
        XCTAssertNil(OpenRosaDocuments.responseMessage(Data("<html/>".utf8)))
    }

    func testAServerAddressIsReadAndItsKeyNeverShown() throws {
        let server = try OpenRosaServer(" https://central.example.org/v1/key/SECRET123/projects/3/ ")
        XCTAssertEqual(server.formListURL.absoluteString, "https://central.example.org/v1/key/SECRET123/projects/3/formList")
        XCTAssertEqual(server.displayName, "https://central.example.org/v1/key/…/projects/3")
        XCTAssertTrue(server.mayReceivePassword)
        XCTAssertTrue(server.sameOrigin(as: URL(string: "https://central.example.org:443/other")!))
        XCTAssertFalse(server.sameOrigin(as: URL(string: "http://central.example.org/other")!))
        XCTAssertFalse(server.sameOrigin(as: URL(string: "https://evil.example.org/v1")!))

        XCTAssertFalse(try OpenRosaServer("http://kobo.example.org/enumerator").mayReceivePassword)
        XCTAssertTrue(try OpenRosaServer("http://127.0.0.1:8000/enumerator").mayReceivePassword)
        XCTAssertTrue(try OpenRosaServer("http://localhost:8000").mayReceivePassword)
        for address in ["", "kobo.example.org", "ftp://kobo.example.org", "https://", "https://a.org/x?token=1", "https://u:p@a.org"] {
            XCTAssertThrowsError(try OpenRosaServer(address), address) {
                XCTAssertEqual(($0 as? OpenRosaError)?.kind, .notConfigured)
                XCTAssertFalse(($0 as? OpenRosaError)?.message.contains("u:p") == true)
            }
        }
    }

    func testAFormIDBecomesAFileNameOnlyWhenItIsAPlainOne() {
        XCTAssertEqual(FormLibrary.fileStem("household_2026-v2.1"), "household_2026-v2.1")
        for hostile in ["../up", ".hidden", "a/b", "x\u{0}y", String(repeating: "a", count: 300)] {
            let stem = FormLibrary.fileStem(hostile)
            XCTAssertTrue(stem.hasPrefix("form-"), hostile)
            XCTAssertEqual(stem.count, 5 + 16)
        }
        XCTAssertEqual(MediaFile.md5(fromHash: "MD5:0CC175B9C0F1B6A831C399E269772661"), "0cc175b9c0f1b6a831c399e269772661")
        XCTAssertNil(MediaFile.md5(fromHash: "sha256:abc"))
    }
}
