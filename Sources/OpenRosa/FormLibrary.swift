import Crypto
import FormEngine
public import Foundation

/// The forms downloaded from servers: a folder per server, per form and per
/// version of the form (named by its XForm's MD5 digest), holding the XForm
/// as `FORM.xml` and its media and data files in `FORM-media/`, as any form
/// file is laid out. A version is never changed into another: a form that
/// changed on the server arrives as a new folder beside the old one, whose
/// drafts and responses stay openable with it. Only a version's media files
/// are brought up to date in place, as ODK Collect does, when the server
/// replaces them.
///
/// A download goes into a hidden folder and appears under its version's
/// name only complete, checked and readable; a media file cut off keeps
/// what arrived, and the next download goes on from there.
public struct FormLibrary: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// Where a server's forms are: named by its host, and by a digest of
    /// its whole address (which may hold a key, never written out).
    public func folder(for server: OpenRosaServer) -> URL {
        let digest = server.addressDigest.prefix(12)
        let host = (server.url.host ?? "server").filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
        return directory.appendingPathComponent("\(host)-\(digest)", isDirectory: true)
    }

    /// Where a form's versions are.
    func folder(for form: ServerForm, from server: OpenRosaServer) -> URL {
        folder(for: server).appendingPathComponent(Self.fileStem(form.formID), isDirectory: true)
    }

    /// How far a listed form is here.
    public enum State: Sendable, Equatable {
        /// No version of it is here.
        case absent
        /// Another version is here; this one is not.
        case outdated
        /// This version is here (its media files may still change).
        case current(URL)
    }

    public func state(of form: ServerForm, from server: OpenRosaServer) -> State {
        let formFolder = folder(for: form, from: server)
        if let md5 = form.md5 {
            let file = formFolder.appendingPathComponent(md5).appendingPathComponent(Self.fileStem(form.formID) + ".xml")
            if FileManager.default.fileExists(atPath: file.path) { return .current(file) }
        }
        return versions(in: formFolder).isEmpty ? .absent : .outdated
    }

    /// What one form's download did.
    public struct Download: Sendable, Equatable {
        /// The form's file, ready to open.
        public var file: URL
        /// Whether this version was not here before.
        public var isNewVersion: Bool
        /// Media files fetched (new or replaced on the server).
        public var mediaFetched: Int
    }

    /// Brings `form` here: its XForm unless this version is here already,
    /// then whichever of its media files are missing or changed. Throws
    /// the first failure; what arrived so far is kept for the next try.
    public func download(_ form: ServerForm, with client: OpenRosaClient) async throws(OpenRosaError) -> Download {
        let server = client.server
        let stem = Self.fileStem(form.formID)
        let formFolder = folder(for: form, from: server)
        try makeFolder(formFolder)
        try record(server)

        var isNew = false
        var versionFolder: URL
        if case .current(let file) = state(of: form, from: server) {
            versionFolder = file.deletingLastPathComponent()
        } else {
            // The XForm is small: fetched whole each try, checked, then kept.
            // Its listed hash only says whether it changed, as Collect uses
            // it: onadata's lineage lists a new random one at each request.
            // What arrived is checked by reading and running it below, and
            // a version is named by the MD5 of its own bytes.
            let xml = try await client.formXML(of: form)
            let md5 = OpenRosaClient.hex(Insecure.MD5.hash(data: xml))
            if let key = Self.publicKey(in: xml), SubmissionEnvelope.rsaKey(key) == nil {
                throw OpenRosaError(tr("The form %@ on %@ names a public key to encrypt its responses with that is not an RSA key of 2048 bits or more: it is not downloaded, so that no answer to it is sent unencrypted.", form.formID, server.displayName), kind: .refused)
            }
            versionFolder = formFolder.appendingPathComponent(md5, isDirectory: true)
            if !FileManager.default.fileExists(atPath: versionFolder.path) {
                isNew = true
                let staging = formFolder.appendingPathComponent(".incoming-" + md5, isDirectory: true)
                try makeFolder(staging)
                try write(xml, to: staging.appendingPathComponent(stem + ".xml"))
                versionFolder = staging
            }
        }

        let media = try await client.manifest(of: form)
        let mediaFolder = versionFolder.appendingPathComponent(stem + "-media", isDirectory: true)
        if !media.isEmpty { try makeFolder(mediaFolder) }
        var fetched = 0
        for file in media {
            let target = mediaFolder.appendingPathComponent(file.fileName)
            if Self.md5(of: target) == file.md5 { continue }
            if let earlier = earlierCopy(of: file, in: formFolder) {
                try? FileManager.default.removeItem(at: target)
                if (try? FileManager.default.copyItem(at: earlier, to: target)) != nil { continue }
            }
            let part = mediaFolder.appendingPathComponent("." + file.fileName + ".part")
            let what = tr("media file %@ of form %@", file.fileName, form.formID)
            let md5 = try await client.download(file.downloadURL, to: part, what: what)
            guard md5 == file.md5 else {
                try? FileManager.default.removeItem(at: part)
                throw OpenRosaError(tr("The %@ from %@ arrived different from the one the server lists (its MD5 hash is %@, not %@); it is tried again later.", what, server.displayName, md5, file.md5 ?? ""), kind: .damaged)
            }
            try replace(target, with: part)
            fetched += 1
        }

        let stemFile = stem + ".xml"
        guard isNew else {
            return Download(file: versionFolder.appendingPathComponent(stemFile), isNewVersion: false, mediaFetched: fetched)
        }
        // Complete: it must run, its data files read, before it takes its
        // version's name.
        let file = versionFolder.appendingPathComponent(stemFile)
        var problems: [String]
        do {
            let definition = try FormDefinition(contentsOf: file)
            problems = FormPlan(definition, media: FormMedia(besideFormAt: file)).problems.map { "\($0)" }
        } catch {
            problems = error.problems.map { "\($0)" }
        }
        if !problems.isEmpty {
            try? FileManager.default.removeItem(at: versionFolder)
            let shown = problems.prefix(3).joined(separator: "; ") + (problems.count > 3 ? "; …" : "")
            throw OpenRosaError(tr("The form %@ from %@ cannot be opened: %@", form.formID, server.displayName, shown), kind: .refused)
        }
        let final = formFolder.appendingPathComponent(String(versionFolder.lastPathComponent.dropFirst(".incoming-".count)), isDirectory: true)
        do {
            try FileManager.default.moveItem(at: versionFolder, to: final)
        } catch {
            throw OpenRosaError(tr("The form %@ cannot be kept in %@: %@", form.formID, formFolder.path, error.localizedDescription), kind: .local)
        }
        return Download(file: final.appendingPathComponent(stemFile), isNewVersion: true, mediaFetched: fetched)
    }

    /// The server a form file here came from, which its responses go to;
    /// nil for a form from anywhere else.
    public func server(forFormAt file: URL) -> OpenRosaServer? {
        serverFolder(of: file).flatMap(server(recordedIn:))
    }

    /// Whether `file` is in the library, by its path alone (no file is read).
    public func holds(_ file: URL) -> Bool {
        serverFolder(of: file) != nil
    }

    private func serverFolder(of file: URL) -> URL? {
        let root = directory.standardizedFileURL.pathComponents
        let parts = file.standardizedFileURL.pathComponents
        guard parts.count > root.count + 1, Array(parts.prefix(root.count)) == root else { return nil }
        return directory.appendingPathComponent(parts[root.count])
    }

    private func server(recordedIn folder: URL) -> OpenRosaServer? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(Self.serverRecord)),
              let fields = try? JSONDecoder().decode([String: String].self, from: data),
              let address = fields["url"]
        else { return nil }
        // The authority's file is not checked here: a server whose file has
        // gone is still this library's, its responses said to wait for it
        // and its login and authority changeable in Preferences.
        guard var server = try? OpenRosaServer(address, user: fields["user"] ?? "") else { return nil }
        server.certificateAuthority = fields["ca"] ?? ""
        return server
    }

    /// The servers forms here came from.
    public var servers: [OpenRosaServer] {
        let folders = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])) ?? []
        return folders.compactMap { server(recordedIn: $0) }
    }

    /// The server at `address` (an outbox's destination), with the user and
    /// authority its forms were downloaded with; as the address alone when
    /// no form here came from it.
    public func server(at address: String) -> OpenRosaServer? {
        servers.first { $0.url.absoluteString == address } ?? (try? OpenRosaServer(address))
    }

    /// Makes `user` the login the forms from `server` send their responses
    /// with (empty: none, for an address holding a key), and
    /// `certificateAuthority` the file of the authority trusted for it
    /// (empty: the system's alone); the server as it is then. A server no
    /// form here came from is refused: its responses, if any, are not this
    /// library's. So is an authority's file that cannot be read.
    public func changeLogin(
        of server: OpenRosaServer, user: String, certificateAuthority: String
    ) throws(OpenRosaError) -> OpenRosaServer {
        guard FileManager.default.fileExists(atPath: folder(for: server).appendingPathComponent(Self.serverRecord).path) else {
            throw OpenRosaError(tr("No form here came from %@.", server.displayName), kind: .local)
        }
        var changed = server
        changed.user = user
        changed.certificateAuthority = certificateAuthority
        if let problem = changed.certificateAuthorityProblem { throw OpenRosaError(problem, kind: .notConfigured) }
        try record(changed)
        return changed
    }

    /// The file in a server's folder that says which server it is: its
    /// address may hold a key, so only its owner reads it.
    static let serverRecord = "server.json"

    private func record(_ server: OpenRosaServer) throws(OpenRosaError) {
        let file = folder(for: server).appendingPathComponent(Self.serverRecord)
        var fields = ["url": server.url.absoluteString, "user": server.user]
        if !server.certificateAuthority.isEmpty { fields["ca"] = server.certificateAuthority }
        if let data = try? Data(contentsOf: file), (try? JSONDecoder().decode([String: String].self, from: data)) == fields { return }
        do {
            let data = try JSONEncoder().encode(fields)
            try data.write(to: file, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        } catch {
            throw OpenRosaError(tr("%@ cannot be written: %@", file.path, error.localizedDescription), kind: .local)
        }
    }

    /// The public key the XForm's responses are to be encrypted with
    /// (`submission`'s `base64RsaPublicKey`, from the settings'
    /// `public_key`), or nil.
    static func publicKey(in xml: Data) -> String? {
        guard let root = try? XMLTree.parse(xml) else { return nil }
        func search(_ element: XMLTree, depth: Int) -> String? {
            if element.name == "submission", let key = element["base64RsaPublicKey"],
               !key.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return key }
            // The submission element is in the head's model, near the top.
            guard depth < 4 else { return nil }
            return element.children.lazy.compactMap { search($0, depth: depth + 1) }.first
        }
        return search(root, depth: 0)
    }

    /// The complete versions of a form here, newest first.
    func versions(in formFolder: URL) -> [URL] {
        let keys: [URLResourceKey] = [.contentModificationDateKey, .isDirectoryKey]
        let entries = (try? FileManager.default.contentsOfDirectory(at: formFolder, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])) ?? []
        return entries.filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .sorted {
                let first = (try? $0.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
                let second = (try? $1.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
                return first > second
            }
    }

    /// The same file, by name and digest, in another version of the form:
    /// a new version usually keeps its predecessor's media.
    private func earlierCopy(of file: MediaFile, in formFolder: URL) -> URL? {
        for version in versions(in: formFolder) {
            let media = (try? FileManager.default.contentsOfDirectory(at: version, includingPropertiesForKeys: nil)) ?? []
            for folder in media where folder.lastPathComponent.hasSuffix("-media") {
                let candidate = folder.appendingPathComponent(file.fileName)
                if Self.md5(of: candidate) == file.md5 { return candidate }
            }
        }
        return nil
    }

    /// The form id as a file name: as it is when it is a plain name (as
    /// pyxform's ids are), or its digest when it is not.
    static func fileStem(_ formID: String) -> String {
        let plain = formID.allSatisfy { $0.isLetter || $0.isNumber || "._-".contains($0) }
        return plain && !formID.hasPrefix(".") && formID.utf8.count <= 200
            ? formID : "form-" + OpenRosaClient.hex(SHA256.hash(data: Data(formID.utf8)).prefix(8))
    }

    static func md5(of file: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        var digest = Insecure.MD5()
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty { digest.update(data: chunk) }
        return OpenRosaClient.hex(digest.finalize())
    }

    private func makeFolder(_ url: URL) throws(OpenRosaError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw OpenRosaError(tr("The folder %@ cannot be made: %@", url.path, error.localizedDescription), kind: .local)
        }
    }

    private func write(_ data: Data, to url: URL) throws(OpenRosaError) {
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw OpenRosaError(tr("%@ cannot be written: %@", url.path, error.localizedDescription), kind: .local)
        }
    }

    private func replace(_ target: URL, with part: URL) throws(OpenRosaError) {
        // rename(2) replaces the old file in one step.
        if rename(part.path, target.path) != 0 {
            throw OpenRosaError(tr("%@ cannot be written: %@", target.path, String(cString: strerror(errno))), kind: .local)
        }
    }
}
