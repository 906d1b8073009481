import Crypto
import CryptoExtras
import Foundation
@testable import OpenRosa
import XCTest

/// A response sealed for a form's public key opens with the server's
/// private key exactly as ODK's encryption specification says a server
/// opens it, and carries the signature a server checks it by.
final class SubmissionEncryptionTests: XCTestCase {
    // Made once: a 2048-bit key takes a while. Only read.
    nonisolated(unsafe) private static let privateKey = try! _RSA.Encryption.PrivateKey(keySize: .bits2048)
    private let instanceID = "uuid:2d0f3a94-8a54-4b0c-a0a5-bd6d2e7c1f01"
    private let xml = Data(#"<data id="trees" version="3"><species>Oak &amp; ash</species><photo>tree.jpg</photo></data>"#.utf8)
    private let photo = Data((0..<1000).map { UInt8($0 % 251) })
    private let note = Data("sixteen bytes!!!".utf8)

    private func seal() throws -> SubmissionEnvelope {
        try SubmissionEnvelope.seal(
            publicKey: Self.privateKey.publicKey.derRepresentation.base64EncodedString(), formID: "trees", version: "3",
            instanceID: instanceID, xml: xml, files: [("tree.jpg", photo), ("note.txt", note)]
        )
    }

    /// What the manifest says between `<name>` and `</name>`, each time.
    private func elements(_ name: String, in manifest: Data) -> [String] {
        let text = String(decoding: manifest, as: UTF8.self)
        return text.components(separatedBy: "<\(name)>").dropFirst().compactMap { $0.components(separatedBy: "</\(name)>").first }
    }

    /// The server's side: the key, then each file by its place, the XML
    /// last, each IV the MD5 of the instance id and key with one more byte
    /// raised per file, and the PKCS#5 padding taken off.
    private func open(_ envelope: SubmissionEnvelope, _ encrypted: Data, index: Int) throws -> Data {
        let encryptedKey = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(elements("base64EncryptedKey", in: envelope.manifest).first)))
        let key = try Self.privateKey.decrypt(encryptedKey, padding: .PKCS1_OAEP_SHA256)
        var iv = Array(Insecure.MD5.hash(data: Data(instanceID.utf8) + key))
        for step in 0...index { iv[step % 16] &+= 1 }
        let padded = try AES._CFB.decrypt(encrypted, using: SymmetricKey(data: key), iv: AES._CFB.IV(ivBytes: iv))
        let padding = Int(try XCTUnwrap(padded.last))
        XCTAssertTrue((1...16).contains(padding) && padded.suffix(padding).allSatisfy { $0 == padding }, "PKCS#5 padding")
        return padded.dropLast(padding)
    }

    func testEachFileAndTheXML_openWithTheServersKey_inTheManifestsOrder() throws {
        let envelope = try seal()
        XCTAssertEqual(envelope.key.count, 32, "AES-256")
        XCTAssertEqual(try open(envelope, envelope.encrypt(photo, index: 0, instanceID: instanceID), index: 0), photo)
        // A file of whole blocks gains a whole block of padding.
        let sealedNote = try envelope.encrypt(note, index: 1, instanceID: instanceID)
        XCTAssertEqual(sealedNote.count, 32)
        XCTAssertEqual(try open(envelope, sealedNote, index: 1), note)
        XCTAssertEqual(try open(envelope, envelope.encrypt(xml, index: 2, instanceID: instanceID), index: 2), xml)
        XCTAssertNotEqual(try envelope.encrypt(xml, index: 1, instanceID: instanceID), try envelope.encrypt(xml, index: 2, instanceID: instanceID),
                          "each file has its own IV")
        // A retry sends the same bytes: the server may hold them already.
        XCTAssertEqual(try envelope.encrypt(photo, index: 0, instanceID: instanceID), try envelope.encrypt(photo, index: 0, instanceID: instanceID))
        // The IV's seed wraps past 255, as a byte does.
        XCTAssertEqual(SubmissionEnvelope.iv(instanceID: instanceID, key: envelope.key, index: 16)[0],
                       SubmissionEnvelope.iv(instanceID: instanceID, key: envelope.key, index: 0)[0] &+ 1)
    }

    func testTheManifest_namesTheFormTheFilesAndTheInstance_andIsSigned() throws {
        let envelope = try seal()
        let manifest = String(decoding: envelope.manifest, as: UTF8.self)
        XCTAssertTrue(manifest.contains(#"<data xmlns="http://www.opendatakit.org/xforms/encrypted" id="trees" version="3" encrypted="yes">"#), manifest)
        XCTAssertEqual(elements("orx:instanceID", in: envelope.manifest), [instanceID])
        XCTAssertEqual(elements("file", in: envelope.manifest), ["tree.jpg.enc", "note.txt.enc"])
        XCTAssertEqual(elements("encryptedXmlFile", in: envelope.manifest), ["submission.xml.enc"])
        XCTAssertFalse(manifest.contains("Oak"), "no answer in the clear")
        // The signature: the MD5 of the form, version, key, instance and each
        // plain file's MD5, one a line, encrypted to the same key.
        let encryptedKey = try XCTUnwrap(elements("base64EncryptedKey", in: envelope.manifest).first)
        let md5 = { (data: Data) in Insecure.MD5.hash(data: data).map { String(format: "%02x", $0) }.joined() }
        let lines = ["trees", "3", encryptedKey, instanceID, "tree.jpg::" + md5(photo), "note.txt::" + md5(note), "submission.xml::" + md5(xml)]
        let signature = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(elements("base64EncryptedElementSignature", in: envelope.manifest).first)))
        XCTAssertEqual(try Self.privateKey.decrypt(signature, padding: .PKCS1_OAEP_SHA256),
                       Data(Insecure.MD5.hash(data: Data((lines.joined(separator: "\n") + "\n").utf8))))
        // Each seal makes a key of its own.
        XCTAssertNotEqual(try seal().key, envelope.key)
    }

    // Known answers from ODK Central's decryption tests
    // (github.com/getodk/central-backend, test/unit/util/crypto.js and
    // test/data/priv.pem, Apache License 2.0): a test key pair's private
    // half, a key ODK Collect 1.22.4 encrypted to it, and an instance XML
    // Collect encrypted as a response's second file.
    private static let collectsTestKey = """
    -----BEGIN RSA PRIVATE KEY-----
    MIIEpAIBAAKCAQEAyYh7bSui/0xppQ+J3i5xghfao+559Rqg9X0xNbdMEsW35CzY
    UfmC8sOzeeUiE4pG7HIEUmiJal+mo70UMDUlywXj9z053n0g6MmtLlUyBw0ZGhEZ
    WHsfBxPQixdzY/c5i7sh0dFzWVBZ7UrqBc2qjRFUYxeXqHsAxSPClTH1nW47Mr2h
    4juBLC7tBNZA3biZA/XTPt//hAuzv1d6MGiF3vQJXvFTNdfsh6Ckq4KXUsAv+07c
    LtON4KjrKhqsVNNGbFssTUHVL4A9N3gsuRGt329LHOKBxQUGEnhMM2MEtvk4kaVQ
    rgCqpk1pMU/4HlFtRjOoKdAIuzzxIl56gNdRUQIDAQABAoIBAAh4BcfGp6jWyzG2
    f3KovPhcjEGLSfC018K5KhI5y6aWTG34PHblZ01QUAB1UoNDsktJV0knP28K6fPD
    hE+qTBZF/xhqqD3jQDjIEND7n4iQUle4FDqVoe4oNQFDUQQIZZCronYwuQotyDmi
    hkcMJ3iaG9O2MBdSY+vk3s5qNQoSfqhGwBR64ds5ndORwNCrp55pdM2ZodKpSrJI
    dJ/RvWTo/z5Oo9f8VFFWB7SzqL/BYAzFojKiaCbn0i22DgOGds3gWPJUzlSkHevo
    NaQClrW5ZoI0gK7qjgO5pj8vj5dx7O1EQzB/H+CmFy7vazZVuEG7ZMUVclPa+FfF
    H2kt78kCgYEA76SP+e/r028Maxmf+Hsc8xjYLv/1/vEZni6mcF4c3AimwVm2oRRg
    PFfKSWY9YjGL4UvnLVclLs3ALM1Q/8Ppv8dOGe6mNOsvn3E77R5Ljp0frCYDeggB
    6qZFlvQbgq5wSMdarnnRaZCLklcHVpTj2ieoVOjkne1i886VP1x3kdcCgYEA10oB
    ARHTpP2x7vBFTkuC5R9ByAdJPhVaEYPBr6D+xOt1nB33YcJDym51ByuscH1noxNE
    09Bf1/rt2S1b03XpH55AToqxIVc8fE7eOCXQd1oY8Pzpi2ro/jVirP1MdI3g1pTT
    DNiv3sJJMsiQ79QT6Q+0LddNQuXmPcUOR8GHoRcCgYEA3XGj2cHqmaa0QwOa33Jk
    ff8nRccg+kSw94sEIjHVWT5lWaYdLRw3EYvOUaU4c9R0/eu15B/zLBzUyJGxl6bi
    CWWStkPhMmVhzGRGjAbCqzZmXh2CePGNU9fx1lwcT9YBzD7rfO70pCf90Wy6Szeq
    lZyv4EaVe5oxJjpvj+1SUGECgYAOy681+5uoAydvXGPm9ZmRVYyXyqhl8+G0wnFV
    OKNJtUTn7cdKmKdACkdQrtezA2tT8ccRJ4jutvgRrORarAfRfHa+7xktSWmGwYTU
    JwUkrrR4G2mRg09v6QtXCDFw8S86kA/RGjM8A+4z50TOtqyHn+SqIdnVdydTp29L
    zykbEQKBgQC1FcRKIRkn6IEAHaI0QQl793vxgo/g3oJoRXLptNy63eBygd0x+qY3
    TD8cBMLaJs5DMC5zNGW8YQXtaADMbp0jV6aD/7Qer/SaXk187bGhF5KfSCqjj1yx
    uR0+sgNnVaENMkxsyrVlUXuMivNdPAob6dtspaiEGyseFa/N8RinIg==
    -----END RSA PRIVATE KEY-----
    """

    func testTheIVs_areThoseODKCentralDerives() throws {
        let key = try XCTUnwrap(Data(base64Encoded: "3TJoHf74zHbDwG3Ta+bcvfUr50C6yF/astfu+CdSnQU="))
        let ivs = [0, 1, 8, 15, 23, 31].map { index in
            SubmissionEnvelope.iv(instanceID: "uuid:22525f8e-4f2d-41ed-94da-4c46a2478448", key: key, index: index)
                .map { String(format: "%02x", $0) }.joined()
        }
        XCTAssertEqual(ivs, [
            "39bbb0890f3222269da68b172146477a", "39bcb0890f3222269da68b172146477a", "39bcb18a103323279ea68b172146477a",
            "39bcb18a103323279ea78c182247487b", "3abdb28b113424289ea78c182247487b", "3abdb28b113424289fa88d192348497c",
        ])
    }

    func testAFileEncryptedHere_isByteForByteWhatODKCollectSends() throws {
        let privateKey = try _RSA.Encryption.PrivateKey(pemRepresentation: Self.collectsTestKey)
        let encryptedKey = try XCTUnwrap(Data(base64Encoded: "iyEB1LAlvVE8uaW0HuhLhzwcLceIukqfgusDNdDEE2FFxVtUtSI3FiOuNxhgI/Zbgnaabh/vqeZ3yLXwv0f66pAbN0n8kM9f84VJR18fdUp6doOz7o8IQD7gc3ZfbRXweab/NxnahfYa9ij0Kax1LTKS05Oodk2MewkzwfBhdbf/CfiBP1HSskDio40jdW5f04GkqZsFCPUluF2DfMnwYCo0wdwf2m8o+lSNR+vrFeEYG7LtGE4X90pVrQnJHwFWHGjSwJpg/USn5skBioDKUCv/Dva9xJ+JXUz+QSg6LOuP+SDxsrmf36WKrnE8kWfN4oaBdmIwFSStkLH9foNXUw=="))
        // Collect's key opens with the padding used here: OAEP, SHA-256 and MGF1 SHA-256.
        let key = try privateKey.decrypt(encryptedKey, padding: .PKCS1_OAEP_SHA256)
        let plaintext = #"<?xml version='1.0' ?><data id="encrypted" version="working3" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:h="http://www.w3.org/1999/xhtml" xmlns:jr="http://openrosa.org/javarosa"><meta><instanceID>uuid:99b303d9-6494-477b-a30d-d8aae8867335</instanceID></meta><name>bob</name><age>30</age><file>1561432532482.jpg</file></data>"#
        let envelope = SubmissionEnvelope(key: key, manifest: Data())
        XCTAssertEqual(
            try envelope.encrypt(Data(plaintext.utf8), index: 1, instanceID: "uuid:99b303d9-6494-477b-a30d-d8aae8867335").base64EncodedString(),
            "kMhJdk0mZOqvlxndUO3v4+UPvfYoc+bbkPmF3QmhoP7lP/QjHbzqw/IfZxQ54D328eCc4V6jtbrjeAXV+m1cWsCGGLW5KwTAxBjPBXzsZrUeY0RISVJ1g9BJoXfSRAjYMrFYOM907BFUIYYxMqpVWGy1lo8ljqY+Sgq1VphkQk/TQGgOVYFALHDLOYnLKuLHvwBLQQwK3lje8CwNlf/b2rY9qfGC4P1emoiP+YzkLp8eH6x/HfMvRIFoZEaom1i5s3SU4WVwe2Tno4jKD69ojMlQN6VKB7DK4xaRSs2C7zfDm63n1WCyyOAj8mASIFhb3sc3hD56HTJFUV/TH3UVlzP7oPm/Mm7nEcU3+HdSSwm3I1qFYhsXfVRym41IlbC4Twf660/kUZrugA7Zqd5K9Un3lOVTzYowaF+m5OIOO56wff3zPBxeOVjANDKR7V6/"
        )
    }

    func testAKeyThatIsNoRSAKey_refusesToSealRatherThanSendInTheClear() {
        XCTAssertThrowsError(try SubmissionEnvelope.seal(
            publicKey: "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA", formID: "trees", version: nil,
            instanceID: instanceID, xml: xml, files: []
        )) { error in
            XCTAssertTrue((error as? OpenRosaError)?.message.contains("not an RSA key") ?? false, "\(error)")
        }
    }
}
