#if canImport(Crypto)
import Crypto
#endif
import Foundation

/// `digest(text, algorithm, encoding)`: a hash of the text's UTF-8 bytes, as
/// ODK names the algorithms and encodings.
enum Digest {
    /// The algorithms ODK's `digest()` takes.
    static let algorithms: Set<String> = ["MD5", "SHA-1", "SHA-256", "SHA-384", "SHA-512"]
    /// The encodings ODK's `digest()` takes.
    static let encodings: Set<String> = ["base64", "hex"]

    /// The hash, encoded; nil for an algorithm or encoding ODK does not name.
    static func text(of message: String, algorithm: String, encoding: String) -> String? {
        #if canImport(Crypto)
        let data = Data(message.utf8)
        let bytes: [UInt8]
        switch algorithm.uppercased() {
        case "MD5": bytes = Array(Insecure.MD5.hash(data: data))
        case "SHA-1": bytes = Array(Insecure.SHA1.hash(data: data))
        case "SHA-256": bytes = Array(SHA256.hash(data: data))
        case "SHA-384": bytes = Array(SHA384.hash(data: data))
        case "SHA-512": bytes = Array(SHA512.hash(data: data))
        default: return nil
        }
        #else
        // build-aux/fuzz compiles the engine with swiftc alone, without
        // swift-crypto: there no hash is made. SwiftPM builds always have it.
        let bytes: [UInt8]? = nil
        guard let bytes else { return nil }
        #endif
        switch encoding.lowercased() {
        case "base64": return Data(bytes).base64EncodedString()
        case "hex": return bytes.map { String(format: "%02x", $0) }.joined()
        default: return nil
        }
    }
}
