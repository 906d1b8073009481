import Crypto
import FormEngine
public import Foundation

/// An OpenRosa server as a data collector is given it: a base address under
/// which `formList` and `submission` live (ODK Central's project address
/// with an App User's key in it, `…/v1/key/TOKEN/projects/ID`, KoboToolbox's
/// `…/USER`, Ona's), and the user name to log in with, if any. The password
/// is handed in when connecting.
public struct OpenRosaServer: Sendable, Equatable, Hashable {
    /// The base address, without a trailing slash.
    public let url: URL
    public var user: String
    /// A PEM file of the authority that signed the server's certificate,
    /// trusted besides the system's (a server of the organisation's own);
    /// empty for the system's alone.
    public var certificateAuthority: String

    /// Reads the address a user typed or pasted; throws saying what is wrong
    /// with it.
    public init(_ address: String, user: String = "", certificateAuthority: String = "") throws(OpenRosaError) {
        var text = address.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix("/") { text.removeLast() }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "https" || scheme == "http", let host = components.host, !host.isEmpty
        else {
            throw OpenRosaError(tr("%@ is not a server address: it starts with https:// and names a host.", address), kind: .notConfigured)
        }
        guard components.user == nil, components.password == nil else {
            throw OpenRosaError(tr("The server address carries a login: give the user name and password separately, so that the password goes to the keyring and not into the address."), kind: .notConfigured)
        }
        guard components.query == nil, components.fragment == nil else {
            throw OpenRosaError(tr("The server address %@ ends in a query or fragment; give the address the forms are listed under.", Self.hidingKeys(text)), kind: .notConfigured)
        }
        guard let url = URL(string: text) else {
            throw OpenRosaError(tr("%@ is not a server address: it starts with https:// and names a host.", address), kind: .notConfigured)
        }
        self.url = url
        self.user = user
        self.certificateAuthority = certificateAuthority
        if let problem = certificateAuthorityProblem { throw OpenRosaError(problem, kind: .notConfigured) }
    }

    /// What is wrong with the certificate authority's file, if anything: it
    /// is checked where it is typed and again before each connection.
    public var certificateAuthorityProblem: String? {
        guard !certificateAuthority.isEmpty, !FileManager.default.isReadableFile(atPath: certificateAuthority) else { return nil }
        return tr("The certificate authority file %@ cannot be read.", certificateAuthority)
    }

    /// A SHA-256 of the address in hex: what names the server where its
    /// address (which may hold a key) must not be written (a folder, the
    /// keyring's attributes).
    public var addressDigest: String {
        OpenRosaClient.hex(SHA256.hash(data: Data(url.absoluteString.utf8)))
    }

    /// Where the server lists its forms.
    public var formListURL: URL { url.appendingPathComponent("formList") }
    /// Where responses are sent.
    public var submissionURL: URL { url.appendingPathComponent("submission") }

    /// The address as shown to the user and written in messages: an App
    /// User's key in ODK Central's path is a password, and is shown as `…`.
    public var displayName: String { Self.hidingKeys(url.absoluteString) }

    /// Whether a password may be sent to this server: over TLS, or to this
    /// computer itself (a server for tests or on the same machine). Over
    /// plain HTTP anyone on the way could read it.
    public var mayReceivePassword: Bool {
        url.scheme?.lowercased() == "https" || Self.isLoopback(url.host ?? "")
    }

    /// Whether `other` is at the same scheme, host and port: what a
    /// redirect may lead to, and what a password may follow.
    func sameOrigin(as other: URL) -> Bool {
        func port(_ url: URL) -> Int? { url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80) }
        return url.scheme?.lowercased() == other.scheme?.lowercased()
            && url.host?.lowercased() == other.host?.lowercased() && port(url) == port(other)
    }

    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        return host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }

    /// `text` with a Central App User key (`/key/TOKEN/`) replaced by `…`.
    static func hidingKeys(_ text: String) -> String {
        var parts = text.components(separatedBy: "/")
        for index in parts.indices.dropLast() where parts[index] == "key" {
            parts[index + 1] = "…"
        }
        return parts.joined(separator: "/")
    }
}
