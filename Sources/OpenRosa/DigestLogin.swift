import Crypto
import Foundation

/// HTTP Digest authentication (RFC 7616, with RFC 2069's form for a server
/// that names no `qop`), which OpenRosa servers of ODK Aggregate's lineage
/// ask for: the password itself never crosses the link, only a digest of
/// it with the server's nonce. AsyncHTTPClient speaks Basic only.
struct DigestLogin: Sendable {
    var realm: String
    var nonce: String
    var opaque: String?
    var algorithm: String
    /// `auth` when the server offers it; nil for RFC 2069's form.
    var qop: String?
    /// Requests answered with this nonce so far.
    var count = 0

    /// The Digest challenge among `headers`' `WWW-Authenticate` values, with
    /// whether the server said the last nonce was stale (a retry with the
    /// new one is due, not a refusal).
    static func challenge(in values: [String]) -> (login: DigestLogin, stale: Bool)? {
        for value in values {
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            guard trimmed.lowercased().hasPrefix("digest ") else { continue }
            let fields = parameters(String(trimmed.dropFirst(7)))
            guard let realm = fields["realm"], let nonce = fields["nonce"] else { continue }
            let algorithm = (fields["algorithm"] ?? "MD5").uppercased()
            guard ["MD5", "MD5-SESS", "SHA-256", "SHA-256-SESS"].contains(algorithm) else { continue }
            let offered = (fields["qop"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            if !offered.isEmpty, !offered.contains("auth") { continue }
            let login = DigestLogin(
                realm: realm, nonce: nonce, opaque: fields["opaque"], algorithm: algorithm,
                qop: offered.contains("auth") ? "auth" : nil
            )
            return (login, fields["stale"]?.lowercased() == "true")
        }
        return nil
    }

    /// The `Authorization` value for `method` on `uri` (the request target:
    /// path and query as sent), counting this request.
    mutating func authorization(method: String, uri: String, user: String, password: String, cnonce: String? = nil) -> String {
        count += 1
        let nc = String(format: "%08x", count)
        let cnonce = cnonce ?? String(Self.hash(UUID().uuidString, algorithm: "MD5").prefix(16))
        var ha1 = Self.hash("\(user):\(realm):\(password)", algorithm: algorithm)
        if algorithm.hasSuffix("-SESS") { ha1 = Self.hash("\(ha1):\(nonce):\(cnonce)", algorithm: algorithm) }
        let ha2 = Self.hash("\(method):\(uri)", algorithm: algorithm)
        let response = qop.map { Self.hash("\(ha1):\(nonce):\(nc):\(cnonce):\($0):\(ha2)", algorithm: algorithm) }
            ?? Self.hash("\(ha1):\(nonce):\(ha2)", algorithm: algorithm)
        var fields = [
            "username=\(Self.quoted(user))", "realm=\(Self.quoted(realm))", "nonce=\(Self.quoted(nonce))",
            "uri=\(Self.quoted(uri))", "algorithm=\(algorithm)", "response=\"\(response)\"",
        ]
        if let qop { fields += ["qop=\(qop)", "nc=\(nc)", "cnonce=\"\(cnonce)\""] }
        if let opaque { fields.append("opaque=\(Self.quoted(opaque))") }
        return "Digest " + fields.joined(separator: ", ")
    }

    /// `key=value` and `key="quoted, value"` pairs, comma-separated.
    static func parameters(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        var rest = Substring(text)
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "," }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let key = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: equals)...].drop { $0 == " " }
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                var escaped = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if escaped {
                        value.append(character)
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        break
                    } else {
                        value.append(character)
                    }
                }
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = rest[end...]
            }
            if !key.isEmpty { fields[key] = value }
        }
        return fields
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    static func hash(_ text: String, algorithm: String) -> String {
        let data = Data(text.utf8)
        let digest: [UInt8] = algorithm.hasPrefix("SHA-256") ? Array(SHA256.hash(data: data)) : Array(Insecure.MD5.hash(data: data))
        return OpenRosaClient.hex(digest)
    }
}
