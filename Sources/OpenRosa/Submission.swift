import AsyncHTTPClient
import FormEngine
public import Foundation
import MultipartKit
import NIOCore
import NIOHTTP1

/// A response as an OpenRosa server is sent it: its instance XML (as the
/// part `xml_submission_file`) and the files its answers name.
public struct Submission: Sendable {
    public var instanceID: String
    public var xml: Data
    /// Each file goes as a part named by its file name.
    public var attachments: [URL]
    /// For an edit, the instance id of the revision it replaces (the XML's
    /// `meta/deprecatedID`).
    public var deprecatedID: String?
    /// For a form that encrypts its responses, the envelope they go in:
    /// the server is sent its manifest, each file encrypted (`NAME.enc`)
    /// and the XML as `submission.xml.enc`, never the plain answers.
    public var envelope: SubmissionEnvelope?

    public init(instanceID: String, xml: Data, attachments: [URL], deprecatedID: String? = nil, envelope: SubmissionEnvelope? = nil) {
        self.instanceID = instanceID
        self.xml = xml
        self.attachments = attachments
        self.deprecatedID = deprecatedID
        self.envelope = envelope
    }

    /// The submission as the server is sent it: for an encrypted one, its
    /// manifest with the encrypted files, written to a private folder in
    /// `scratch` (removed by the caller); else itself.
    func sealed(in scratch: URL) throws(OpenRosaError) -> Submission {
        guard let envelope else { return self }
        let folder = scratch.appendingPathComponent("encrypted-" + UUID().uuidString.lowercased(), isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw OpenRosaError(tr("Response %@ could not be encrypted: %@", instanceID, error.localizedDescription), kind: .local)
        }
        var files: [URL] = []
        for (index, file) in attachments.enumerated() {
            guard let data = try? Data(contentsOf: file) else {
                throw OpenRosaError(tr("The file %@ of response %@ cannot be read.", file.lastPathComponent, instanceID), kind: .local)
            }
            files.append(try write(envelope.encrypt(data, index: index, instanceID: instanceID), to: folder, as: file.lastPathComponent + ".enc"))
        }
        files.append(try write(envelope.encrypt(xml, index: attachments.count, instanceID: instanceID),
                               to: folder, as: SubmissionEnvelope.xmlFileName + ".enc"))
        return Submission(instanceID: instanceID, xml: envelope.manifest, attachments: files, deprecatedID: deprecatedID)
    }

    private func write(_ data: Data, to folder: URL, as name: String) throws(OpenRosaError) -> URL {
        let url = folder.appendingPathComponent(name)
        do {
            try data.write(to: url)
        } catch {
            throw OpenRosaError(tr("Response %@ could not be encrypted: %@", instanceID, error.localizedDescription), kind: .local)
        }
        return url
    }
}

extension OpenRosaClient {
    /// What a server takes in one submission request when it does not say
    /// (`X-OpenRosa-Accept-Content-Length`): ODK Collect's assumption.
    static let defaultAcceptedLength = 10_000_000

    /// Asks the server where and how much it takes (`HEAD`, answered 204
    /// with `X-OpenRosa-Accept-Content-Length`), once per client.
    public func acceptedLength() async throws(OpenRosaError) -> Int {
        if let known = submissionLimit.withLock({ $0 }) { return known }
        let deadline = NIODeadline.now() + Self.amount(limits.document)
        let response = try await exchange(.HEAD, server.submissionURL, deadline: deadline)
        guard response.status == .noContent || response.status == .ok else {
            throw await failure(response, what: tr("address for responses"))
        }
        let length = response.headers.first(name: "X-OpenRosa-Accept-Content-Length").flatMap(Int.init)
            .flatMap { $0 > 0 ? $0 : nil } ?? Self.defaultAcceptedLength
        submissionLimit.withLock { $0 = length }
        return length
    }

    /// Sends `submission`: in one request when it fits the server's limit,
    /// else its files spread over several, each with the XML (all but the
    /// last marked incomplete, as ODK Collect marks them). Returns when the
    /// server has stored it (201, or 202 for one it held already); throws
    /// saying why not, the server's own message included.
    public func submit(_ submission: Submission) async throws(OpenRosaError) {
        guard submission.envelope == nil else {
            let scratch = FileManager.default.temporaryDirectory
            let sealed = try submission.sealed(in: scratch)
            defer { try? FileManager.default.removeItem(at: sealed.attachments[0].deletingLastPathComponent()) }
            return try await submit(sealed)
        }
        var limit = try await acceptedLength()
        var files: [(url: URL, size: Int)] = []
        for file in submission.attachments {
            guard let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) else {
                throw OpenRosaError(tr("The file %@ of response %@ is missing from %@.", file.lastPathComponent, submission.instanceID, file.deletingLastPathComponent().path), kind: .local)
            }
            files.append((file, size))
        }
        while true {
            let requests = try split(files, xmlSize: submission.xml.count, limit: limit, instanceID: submission.instanceID)
            do {
                for (index, group) in requests.enumerated() {
                    try await post(submission, files: group, complete: index == requests.count - 1)
                }
                return
            } catch let error where error.kind == .tooLarge && limit > 1 << 20 && requests.contains(where: { $0.count > 1 }) {
                // 413: the server takes less than it said; send smaller requests.
                limit /= 2
            }
        }
    }

    /// The files in groups that each fit `limit` with the XML; throws when
    /// one file alone does not.
    private func split(
        _ files: [(url: URL, size: Int)], xmlSize: Int, limit: Int, instanceID: String
    ) throws(OpenRosaError) -> [[URL]] {
        let overhead = 1024
        var groups: [[URL]] = [[]]
        var used = xmlSize + overhead
        for file in files {
            guard xmlSize + overhead + file.size + overhead <= limit else {
                throw OpenRosaError(tr("The file %@ of response %@ (%@) is larger than the %@ %@ takes in one request; the response stays queued.", file.url.lastPathComponent, instanceID, Self.size(file.size), Self.size(limit), server.displayName), kind: .tooLarge)
            }
            if used + file.size + overhead > limit, !(groups.last?.isEmpty ?? true) {
                groups.append([])
                used = xmlSize + overhead
            }
            groups[groups.count - 1].append(file.url)
            used += file.size + overhead
        }
        return groups
    }

    private func post(_ submission: Submission, files: [URL], complete: Bool) async throws(OpenRosaError) {
        var parts = [Self.part(name: "xml_submission_file", fileName: "xml_submission_file.xml", type: "text/xml", body: submission.xml)]
        for file in files {
            guard let data = try? Data(contentsOf: file) else {
                throw OpenRosaError(tr("The file %@ of response %@ cannot be read.", file.lastPathComponent, submission.instanceID), kind: .local)
            }
            parts.append(Self.part(name: file.lastPathComponent, fileName: file.lastPathComponent, type: Self.mediaType(of: file), body: data))
        }
        if !complete {
            parts.append(MultipartPart(headers: ["Content-Disposition": "form-data; name=\"*isIncomplete*\""], body: "yes"))
        }
        let boundary = "surveyform-" + UUID().uuidString.lowercased()
        var body = ByteBuffer()
        do {
            try MultipartSerializer().serialize(parts: parts, boundary: boundary, into: &body)
        } catch {
            throw OpenRosaError(tr("Response %@ cannot be put into a request: %@", submission.instanceID, String(describing: error)), kind: .local)
        }
        let deadline = NIODeadline.now() + Self.amount(limits.document)
        let response = try await exchange(
            .POST, server.submissionURL, deadline: deadline,
            headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: body
        )
        let what = tr("response %@", submission.instanceID)
        switch response.status.code {
        case 201, 202:
            _ = try? await response.body.collect(upTo: 1 << 20)
        case 409 where submission.deprecatedID != nil:
            // Central's answer to an edit of a revision that is no longer
            // the current one there: someone else's edit came first.
            let said = await message(of: response)
            throw OpenRosaError(tr("%@ refused the edit %@: the response it replaces, %@, was changed on the server since (%@). The edit is kept here, and tried again with the responses that wait.", server.displayName, submission.instanceID, submission.deprecatedID ?? "", said ?? tr("no reason given")), kind: .conflict)
        case 409:
            let said = await message(of: response)
            throw OpenRosaError(tr("%@ already holds a different response with the id %@%@: this one is kept here, and tried again with the responses that wait.", server.displayName, submission.instanceID, said.map { " (\($0))" } ?? ""), kind: .conflict)
        case 413:
            throw OpenRosaError(tr("%@ refused %@ as too large.", server.displayName, what), kind: .tooLarge)
        case 401, 403:
            let said = await message(of: response)
            throw OpenRosaError(tr("%@ does not take responses from this login or key (HTTP %@)%@.", server.displayName, String(response.status.code), said.map { " (\($0))" } ?? ""), kind: .credentials)
        case 500...599:
            let said = await message(of: response)
            throw OpenRosaError(tr("%@ failed to store %@ (HTTP %@)%@; it is tried again later.", server.displayName, what, String(response.status.code), said.map { " (\($0))" } ?? ""), kind: .serverFailed)
        default:
            let said = await message(of: response)
            throw OpenRosaError(tr("%@ refused %@ (HTTP %@)%@.", server.displayName, what, String(response.status.code), said.map { " (\($0))" } ?? ""), kind: .refused)
        }
    }

    private static func part(name: String, fileName: String, type: String, body: Data) -> MultipartPart {
        let quoted = { (text: String) in text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") }
        return MultipartPart(
            headers: [
                "Content-Disposition": "form-data; name=\"\(quoted(name))\"; filename=\"\(quoted(fileName))\"",
                "Content-Type": type,
            ],
            body: body
        )
    }

    /// The media type a server files an attachment under, by its extension.
    static func mediaType(of file: URL) -> String {
        switch file.pathExtension.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "svg": "image/svg+xml"
        case "mp3": "audio/mpeg"
        case "m4a": "audio/mp4"
        case "ogg", "oga": "audio/ogg"
        case "wav": "audio/wav"
        case "amr": "audio/amr"
        case "mp4": "video/mp4"
        case "webm": "video/webm"
        case "3gp": "video/3gpp"
        case "csv": "text/csv"
        case "xml": "text/xml"
        case "pdf": "application/pdf"
        case "txt": "text/plain"
        case "geojson", "json": "application/json"
        case "osm": "application/vnd.openstreetmap.data+xml"
        default: "application/octet-stream"
        }
    }

    static func size(_ bytes: Int) -> String {
        ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)
    }
}
