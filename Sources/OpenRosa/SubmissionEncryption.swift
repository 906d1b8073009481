import Crypto
import CryptoExtras
import FormEngine
public import Foundation

/// A response encrypted for its form's public key, as ODK's encryption
/// specification defines it and ODK Collect sends it: an AES-256 key made
/// for the response, encrypted to the form's RSA key (OAEP, SHA-256 for
/// both the digest and MGF1); every file, the instance XML last, in AES
/// CFB with PKCS#5 padding, each under its own IV; and a manifest, sent
/// as the submission's XML, naming them with a signature over them.
public struct SubmissionEnvelope: Sendable, Equatable, Codable {
    /// The response's AES-256 key: the files are encrypted under it again at
    /// each try, the same bytes each time.
    public var key: Data
    /// The manifest the server is sent in place of the instance XML.
    public var manifest: Data

    /// The name the encrypted instance XML goes under.
    public static let xmlFileName = "submission.xml"

    /// Seals a response: a new key, encrypted to `publicKey` (the form's
    /// `base64RsaPublicKey`, an X.509 SubjectPublicKeyInfo in base64), and
    /// the manifest naming `files` (in the order they are sent) and the XML.
    public static func seal(
        publicKey: String, formID: String, version: String?, instanceID: String,
        xml: Data, files: [(name: String, data: Data)]
    ) throws(OpenRosaError) -> SubmissionEnvelope {
        guard let rsaKey = rsaKey(publicKey) else {
            throw OpenRosaError(tr("The form %@ names a public key its responses are encrypted with that is not an RSA key of 2048 bits or more; response %@ is not sent.", formID, instanceID), kind: .local)
        }
        let key = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let encryptedKey: String
        let signature: String
        do {
            encryptedKey = try rsaKey.encrypt(key, padding: .PKCS1_OAEP_SHA256).base64EncodedString()
            // What the signature covers, one line each: the form, its
            // version when it has one, the encrypted key, the instance, and
            // each file by its plain name and the MD5 of its plain bytes.
            var lines = [formID]
            if let version, !version.isEmpty { lines.append(version) }
            lines += [encryptedKey, instanceID]
            for file in files + [(xmlFileName, xml)] {
                lines.append(file.name + "::" + OpenRosaClient.hex(Insecure.MD5.hash(data: file.data)))
            }
            let digest = Data(Insecure.MD5.hash(data: Data((lines.joined(separator: "\n") + "\n").utf8)))
            signature = try rsaKey.encrypt(digest, padding: .PKCS1_OAEP_SHA256).base64EncodedString()
        } catch {
            throw OpenRosaError(tr("Response %@ could not be encrypted: %@", instanceID, String(describing: error)), kind: .local)
        }
        var manifest = #"<?xml version='1.0' encoding='UTF-8' ?>"#
        manifest += #"<data xmlns="http://www.opendatakit.org/xforms/encrypted" id="\#(escaped(formID))""#
        if let version, !version.isEmpty { manifest += #" version="\#(escaped(version))""# }
        manifest += #" encrypted="yes"><base64EncryptedKey>\#(encryptedKey)</base64EncryptedKey>"#
        manifest += #"<orx:meta xmlns:orx="http://openrosa.org/xforms"><orx:instanceID>\#(escaped(instanceID))</orx:instanceID></orx:meta>"#
        for file in files { manifest += "\n<media><file>\(escaped(file.name)).enc</file></media>" }
        manifest += "\n<encryptedXmlFile>\(xmlFileName).enc</encryptedXmlFile>"
        manifest += "<base64EncryptedElementSignature>\(signature)</base64EncryptedElementSignature></data>"
        return SubmissionEnvelope(key: key, manifest: Data(manifest.utf8))
    }

    /// The RSA key `publicKey` (base64 of its X.509 SubjectPublicKeyInfo)
    /// holds, or nil when it holds none of 2048 bits or more.
    static func rsaKey(_ publicKey: String) -> _RSA.Encryption.PublicKey? {
        guard let der = Data(base64Encoded: publicKey.filter { !$0.isWhitespace }) else { return nil }
        return try? _RSA.Encryption.PublicKey(derRepresentation: der)
    }

    /// `data` encrypted as the envelope's `index`th file (the files in the
    /// order the manifest names them, the XML after them): AES-256 in CFB
    /// mode over the data padded as PKCS#5 pads it.
    public func encrypt(_ data: Data, index: Int, instanceID: String) throws(OpenRosaError) -> Data {
        let padding = 16 - data.count % 16
        var padded = data
        padded.append(contentsOf: repeatElement(UInt8(padding), count: padding))
        do {
            let iv = try AES._CFB.IV(ivBytes: Self.iv(instanceID: instanceID, key: key, index: index))
            return try AES._CFB.encrypt(padded, using: SymmetricKey(data: key), iv: iv)
        } catch {
            throw OpenRosaError(tr("Response %@ could not be encrypted: %@", instanceID, String(describing: error)), kind: .local)
        }
    }

    /// The IV of the `index`th file: the MD5 of the instance id and the key,
    /// with one byte more added for each file before it and itself, byte by
    /// byte in turn, as the specification counts them.
    static func iv(instanceID: String, key: Data, index: Int) -> [UInt8] {
        var md5 = Insecure.MD5()
        md5.update(data: Data(instanceID.utf8))
        md5.update(data: key)
        var seed = Array(md5.finalize())
        for step in 0...index { seed[step % 16] &+= 1 }
        return seed
    }

    private static func escaped(_ text: String) -> String { SubmissionXML.escaped(text, attribute: true) }
}
