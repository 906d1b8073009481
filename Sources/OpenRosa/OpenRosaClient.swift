import AsyncHTTPClient
import Crypto
import FormEngine
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization

/// Talks OpenRosa to one server: every request with `X-OpenRosa-Version`
/// and `Date`, the login as HTTP Basic (only over TLS, or to this computer),
/// redirects followed only within the server's own address, every answer
/// read up to a bound and within a time. HTTP and TLS are AsyncHTTPClient's.
///
/// Made by `with(_:password:_:)`, which shuts it down when done.
public final class OpenRosaClient: Sendable {
    public let server: OpenRosaServer
    private let password: String?
    private let http: HTTPClient
    /// The server's limit on a submission request, once asked.
    let submissionLimit = Mutex<Int?>(nil)
    /// The server's Digest challenge, once it gave one: later requests
    /// answer it without being asked again.
    private let digest = Mutex<DigestLogin?>(nil)

    /// How much and how long the client takes from a server.
    public struct Limits: Sendable {
        /// A form list, a manifest, a server's answer.
        public var documentBytes = 16 << 20
        /// An XForm: as large as a form file may be.
        public var formBytes = FormLimits.fileBytes
        /// One media or data file of a form.
        public var mediaBytes: Int64 = 1 << 30
        /// Until the connection is made.
        public var connect: Duration = .seconds(15)
        /// Between two pieces of an answer: a server that stops sending is
        /// given up on after this.
        public var idle: Duration = .seconds(60)
        /// For a whole document (not a media file, which may be large on a
        /// slow link and is bounded by `idle`).
        public var document: Duration = .seconds(120)

        public init() {}
    }

    public let limits: Limits

    private init(server: OpenRosaServer, password: String?, limits: Limits) {
        self.server = server
        self.password = password
        self.limits = limits
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: Self.amount(limits.connect), read: Self.amount(limits.idle))
        )
        // The system's authorities, the name checked against the host.
        var tls = TLSConfiguration.makeClientConfiguration()
        if !server.certificateAuthority.isEmpty { tls.additionalTrustRoots = [.file(server.certificateAuthority)] }
        configuration.tlsConfiguration = tls
        http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Runs `body` with a client for `server`, shut down afterwards.
    public static func with<T: Sendable>(
        _ server: OpenRosaServer, password: String?, limits: Limits = Limits(),
        _ body: (OpenRosaClient) async throws -> T
    ) async throws -> T {
        // Said before anything is sent: TLS would only say that no
        // certificate is trusted. A file recorded with the server's forms
        // may have gone since (moved, on a drive not mounted).
        if let problem = server.certificateAuthorityProblem { throw OpenRosaError(problem, kind: .certificate) }
        let client = OpenRosaClient(server: server, password: password, limits: limits)
        do {
            let result = try await body(client)
            try? await client.http.shutdown()
            return result
        } catch {
            try? await client.http.shutdown()
            throw error
        }
    }

    /// The forms the server offers this user.
    public func formList() async throws(OpenRosaError) -> [ServerForm] {
        let url = server.formListURL
        let data = try await document(url, what: tr("form list"))
        return try OpenRosaDocuments.formList(data, from: url, server: server.displayName)
    }

    /// The media and data files `form` uses.
    func manifest(of form: ServerForm) async throws(OpenRosaError) -> [MediaFile] {
        guard let url = form.manifestURL else { return [] }
        let data = try await document(url, what: tr("list of media files"))
        return try OpenRosaDocuments.manifest(data, from: url, form: form.formID, server: server.displayName)
    }

    /// The XForm of `form`.
    func formXML(of form: ServerForm) async throws(OpenRosaError) -> Data {
        try await document(form.downloadURL, what: tr("form %@", form.formID), maxBytes: limits.formBytes)
    }

    /// A whole document at `url`, which must be answered 200.
    func document(_ url: URL, what: String, maxBytes: Int? = nil) async throws(OpenRosaError) -> Data {
        let maxBytes = maxBytes ?? limits.documentBytes
        let deadline = NIODeadline.now() + Self.amount(limits.document)
        let response = try await exchange(.GET, url, deadline: deadline)
        guard response.status == .ok else { throw await failure(response, what: what) }
        if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > maxBytes {
            throw tooLarge(what: what, maxBytes: maxBytes)
        }
        var data = Data()
        do {
            for try await piece in response.body {
                guard data.count + piece.readableBytes <= maxBytes else { throw tooLarge(what: what, maxBytes: maxBytes) }
                data.append(contentsOf: piece.readableBytesView)
            }
        } catch let error as OpenRosaError {
            throw error
        } catch {
            throw cutOff(error, what: what)
        }
        return data
    }

    /// Writes the file at `url` to `file`, appending to what is there when
    /// the server can send the rest (a download cut off before resumes),
    /// and returns the MD5 digest of the whole file in lowercase hex.
    func download(_ url: URL, to file: URL, what: String) async throws(OpenRosaError) -> String {
        let existing = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int64) ?? 0
        let far = NIODeadline.now() + .hours(24)
        let response = try await exchange(.GET, url, deadline: far, headers: existing > 0 ? [("Range", "bytes=\(existing)-")] : [])
        let resumes: Bool
        switch response.status {
        case .partialContent where existing > 0 && Self.rangeStart(response.headers) == existing:
            resumes = true
        case .ok:
            resumes = false
        case .rangeNotSatisfiable where existing > 0:
            // What was kept is not a beginning of this file any more.
            try? FileManager.default.removeItem(at: file)
            return try await download(url, to: file, what: what)
        default:
            throw await failure(response, what: what)
        }
        var digest = Insecure.MD5()
        let handle: FileHandle
        do {
            if !resumes || !FileManager.default.fileExists(atPath: file.path) {
                guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                    throw CocoaError(.fileWriteUnknown)
                }
            }
            handle = try FileHandle(forUpdating: file)
            if resumes {
                // The digest covers the whole file: what was kept first.
                while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { digest.update(data: chunk) }
            } else {
                try handle.truncate(atOffset: 0)
            }
        } catch {
            throw OpenRosaError(tr("%@ cannot be written to %@: %@", what, file.deletingLastPathComponent().path, error.localizedDescription), kind: .local)
        }
        defer { try? handle.close() }
        var written = resumes ? existing : 0
        do {
            for try await piece in response.body {
                written += Int64(piece.readableBytes)
                guard written <= limits.mediaBytes else {
                    throw tooLarge(what: what, maxBytes: Int(limits.mediaBytes))
                }
                let bytes = Data(piece.readableBytesView)
                digest.update(data: bytes)
                do {
                    try handle.write(contentsOf: bytes)
                } catch {
                    throw OpenRosaError(tr("%@ cannot be written to %@: %@", what, file.deletingLastPathComponent().path, error.localizedDescription), kind: .local)
                }
            }
            try handle.synchronize()
        } catch let error as OpenRosaError {
            throw error
        } catch {
            throw cutOff(error, what: what)
        }
        return Self.hex(digest.finalize())
    }

    /// Sends one request, following redirects within the server's address
    /// and logging in where the server asks for it.
    func exchange(
        _ method: HTTPMethod, _ url: URL, deadline: NIODeadline, headers: [(String, String)] = [], body: ByteBuffer? = nil
    ) async throws(OpenRosaError) -> HTTPClientResponse {
        var url = url
        // A Digest challenge is answered once per request (twice when the
        // server calls its nonce stale), never in a loop.
        var challengesAnswered = 0
        for _ in 0..<8 {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.method = method
            request.headers.add(name: "X-OpenRosa-Version", value: "1.0")
            request.headers.add(name: "Date", value: Self.httpDate(Date()))
            request.headers.add(name: "User-Agent", value: Self.userAgent)
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            if let body { request.body = .bytes(body) }
            let login = loginHeader(for: url, method: method)
            if let login { request.headers.add(name: "Authorization", value: login) }
            let response: HTTPClientResponse
            do {
                response = try await http.execute(request, deadline: deadline)
            } catch {
                throw unreachable(error, url: url)
            }
            switch response.status.code {
            case 301, 302, 303, 307, 308:
                guard let location = response.headers.first(name: "Location"),
                      let next = URL(string: location, relativeTo: url)?.absoluteURL
                else { throw OpenRosaError(tr("%@ redirected a request without saying where to.", server.displayName), kind: .notOpenRosa) }
                guard server.sameOrigin(as: next) else {
                    throw OpenRosaError(tr("%@ sent the request on to another address, %@, which Survey Form does not follow: the server's address may have changed (ask for the new one), or something between here and the server answers in its place.", server.displayName, OpenRosaServer.hidingKeys(next.absoluteString)), kind: .refused)
                }
                url = next
                continue
            case 401:
                let offered = DigestLogin.challenge(in: response.headers["WWW-Authenticate"])
                if let offered, canLogIn(to: url), challengesAnswered == 0 || (offered.stale && challengesAnswered == 1) {
                    challengesAnswered += 1
                    digest.withLock { $0 = offered.login }
                    continue
                }
                throw credentialsRefused(response, sent: login != nil)
            default:
                return response
            }
        }
        throw OpenRosaError(tr("%@ redirected the request more than five times.", server.displayName), kind: .notOpenRosa)
    }

    /// Servers of onadata's lineage (KoboToolbox's, Ona's, djangoxform)
    /// offer their HTTP login only to a client whose User-Agent names
    /// Collect's package, and a cookie login to anything else; the token
    /// says this client speaks to them as Collect does.
    static let userAgent = "SurveyForm (OpenRosa 1.0; compatible; org.odk.collect.android)"

    private func canLogIn(to url: URL) -> Bool {
        !server.user.isEmpty && password != nil && server.mayReceivePassword && server.sameOrigin(as: url)
    }

    /// Digest once the server asked for it, else Basic.
    private func loginHeader(for url: URL, method: HTTPMethod) -> String? {
        guard canLogIn(to: url), let password else { return nil }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let target = (components?.percentEncodedPath ?? url.path) + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
        let answered = digest.withLock { login -> String? in
            guard login != nil else { return nil }
            return login?.authorization(method: method.rawValue, uri: target.isEmpty ? "/" : target, user: server.user, password: password)
        }
        return answered ?? "Basic " + Data("\(server.user):\(password)".utf8).base64EncodedString()
    }

    private func credentialsRefused(_ response: HTTPClientResponse, sent: Bool) -> OpenRosaError {
        let scheme = response.headers.first(name: "WWW-Authenticate")?.split(separator: " ").first.map(String.init) ?? ""
        if sent {
            return OpenRosaError(tr("%@ refused the login of %@: check the user name and password.", server.displayName, server.user), kind: .credentials)
        }
        if !scheme.isEmpty, !["basic", "digest"].contains(scheme.lowercased()) {
            return OpenRosaError(tr("%@ asks for a login by %@, which Survey Form does not offer; ask its administrator for an address with a key (an App User's, on ODK Central).", server.displayName, scheme), kind: .credentials)
        }
        if !server.user.isEmpty, password != nil, !server.mayReceivePassword {
            return OpenRosaError(tr("%@ asks for a password, which Survey Form sends only over a secure connection (https://): over http:// anyone on the way could read it.", server.displayName), kind: .credentials)
        }
        return OpenRosaError(tr("%@ asks for a user name and password.", server.displayName), kind: .credentials)
    }

    /// What an answer other than the one expected means, with the server's
    /// own message where it sent one.
    /// The message of the `OpenRosaResponse` a server answered with, if any.
    func message(of response: HTTPClientResponse) async -> String? {
        let body = (try? await response.body.collect(upTo: 64 << 10)).map { Data($0.readableBytesView) } ?? Data()
        return OpenRosaDocuments.responseMessage(body)
    }

    func failure(_ response: HTTPClientResponse, what: String) async -> OpenRosaError {
        let said = await message(of: response).map { " (\($0))" } ?? ""
        let code = response.status.code
        switch code {
        case 403:
            return OpenRosaError(tr("%@ refused access to its %@ (HTTP 403)%@: the user or key may not have access.", server.displayName, what, said), kind: .credentials)
        case 404:
            return OpenRosaError(tr("%@ has no %@ at its address (HTTP 404)%@: check the server address.", server.displayName, what, said), kind: .refused)
        case 500...599:
            return OpenRosaError(tr("%@ failed to send its %@ (HTTP %@)%@; it is tried again later.", server.displayName, what, String(code), said), kind: .serverFailed)
        default:
            return OpenRosaError(tr("%@ refused to send its %@ (HTTP %@)%@.", server.displayName, what, String(code), said), kind: .refused)
        }
    }

    private func tooLarge(what: String, maxBytes: Int) -> OpenRosaError {
        OpenRosaError(tr("The %@ from %@ is larger than %@, more than Survey Form takes from a server.", what, server.displayName, ByteCountFormatter.string(fromByteCount: Int64(maxBytes), countStyle: .file)), kind: .tooLarge)
    }

    private func cutOff(_ error: any Error, what: String) -> OpenRosaError {
        OpenRosaError(tr("The %@ from %@ was cut off before its end (%@); what arrived is kept, and the next try goes on from there.", what, server.displayName, Self.describe(error)), kind: .damaged)
    }

    private func unreachable(_ error: any Error, url: URL) -> OpenRosaError {
        if let reason = Self.tlsReason(error) {
            return OpenRosaError(tr("The secure connection to %@ failed: %@", server.displayName, reason), kind: .certificate)
        }
        return OpenRosaError(tr("%@ cannot be reached: %@", server.displayName, Self.describe(error)), kind: .unreachable)
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return tr("no connection within the time allowed")
            case .readTimeout: return tr("the server stopped sending")
            case .deadlineExceeded: return tr("no answer within the time allowed")
            case .remoteConnectionClosed: return tr("the server closed the connection")
            default: break
            }
        }
        return String(describing: error)
    }

    private static func tlsReason(_ error: any Error) -> String? {
        if let error = error as? NIOSSLError {
            if case .handshakeFailed(let inner) = error { return String(describing: inner) }
            return String(describing: error)
        }
        if error is NIOSSLExtraError { return String(describing: error) }
        return nil
    }

    private static func rangeStart(_ headers: HTTPHeaders) -> Int64? {
        // Content-Range: bytes START-END/TOTAL
        guard let value = headers.first(name: "Content-Range"), value.lowercased().hasPrefix("bytes ") else { return nil }
        return value.dropFirst(6).split(separator: "-").first.flatMap { Int64($0) }
    }

    static func amount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    static func hex(_ digest: some Sequence<UInt8>) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    /// RFC 9110's date: `Sun, 29 Nov 2026 19:00:00 GMT`, in English
    /// whatever the locale (written out: a DateFormatter per request costs
    /// more than the request).
    static func httpDate(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + parts.tm_year) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
