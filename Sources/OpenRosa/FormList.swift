import FormEngine
public import Foundation

/// A form a server lists (`formList`, the OpenRosa Form List API): what to
/// call it, which version it is, and where its XForm and media files are.
public struct ServerForm: Sendable, Equatable {
    public var formID: String
    public var name: String
    public var version: String?
    /// The XForm's hash as the server gives it, `md5:` and hex digits.
    public var hash: String?
    public var downloadURL: URL
    /// Where its media and data files are listed; nil when it has none.
    public var manifestURL: URL?

    /// The MD5 digest the XForm's bytes must have, in lowercase hex, when
    /// the server gave one.
    var md5: String? { hash.flatMap(MediaFile.md5(fromHash:)) }
}

/// A file a form uses, as its manifest lists it.
public struct MediaFile: Sendable, Equatable {
    /// The file's name, as the form refers to it: one path component.
    public var fileName: String
    public var hash: String
    public var downloadURL: URL

    /// The MD5 digest its bytes must have, in lowercase hex.
    var md5: String? { Self.md5(fromHash: hash) }

    static func md5(fromHash hash: String) -> String? {
        let hex = hash.lowercased().hasPrefix("md5:") ? String(hash.dropFirst(4)) : hash
        let digits = hex.trimmingCharacters(in: .whitespaces).lowercased()
        return digits.count == 32 && digits.allSatisfy(\.isHexDigit) ? digits : nil
    }
}

/// Reading what an OpenRosa server says: its form list, a form's media
/// manifest, the `OpenRosaResponse` of a request. Nothing in them is
/// trusted: names become file names only when they are one plain path
/// component, addresses only when they are http(s).
enum OpenRosaDocuments {
    /// At most this many forms in a list, and files in a manifest.
    static let entries = 10_000

    static func formList(_ data: Data, from url: URL, server: String) throws(OpenRosaError) -> [ServerForm] {
        let root = try document(data, expecting: "xforms", what: tr("form list"), server: server)
        var forms: [ServerForm] = []
        for entry in root.children("xform") {
            guard forms.count < entries else {
                throw OpenRosaError(tr("The server %@ lists more than %@ forms.", server, String(entries)), kind: .tooLarge)
            }
            let formID = field(entry, "formID")
            guard !formID.isEmpty, let download = address(field(entry, "downloadUrl"), relativeTo: url) else {
                throw OpenRosaError(tr("The form list of %@ has a form without an id or a download address.", server), kind: .notOpenRosa)
            }
            let name = field(entry, "name")
            let version = field(entry, "version")
            let hash = field(entry, "hash")
            let manifest = field(entry, "manifestUrl")
            forms.append(ServerForm(
                formID: formID, name: name.isEmpty ? formID : name,
                version: version.isEmpty ? nil : version, hash: hash.isEmpty ? nil : hash,
                downloadURL: download, manifestURL: manifest.isEmpty ? nil : address(manifest, relativeTo: url)
            ))
        }
        return forms
    }

    static func manifest(_ data: Data, from url: URL, form: String, server: String) throws(OpenRosaError) -> [MediaFile] {
        let root = try document(data, expecting: "manifest", what: tr("list of media files"), server: server)
        var files: [MediaFile] = []
        var names: Set<String> = []
        for entry in root.children("mediaFile") {
            guard files.count < entries else {
                throw OpenRosaError(tr("The form %@ on %@ lists more than %@ media files.", form, server, String(entries)), kind: .tooLarge)
            }
            let name = field(entry, "filename")
            guard isPlainFileName(name) else {
                throw OpenRosaError(tr("The form %@ on %@ lists a media file named “%@”, which is not a plain file name.", form, server, name), kind: .notOpenRosa)
            }
            guard names.insert(name.lowercased()).inserted else {
                throw OpenRosaError(tr("The form %@ on %@ lists the media file %@ twice.", form, server, name), kind: .notOpenRosa)
            }
            let hash = field(entry, "hash")
            guard MediaFile.md5(fromHash: hash) != nil else {
                throw OpenRosaError(tr("The form %@ on %@ lists the media file %@ without an MD5 hash to check it by.", form, server, name), kind: .notOpenRosa)
            }
            guard let download = address(field(entry, "downloadUrl"), relativeTo: url) else {
                throw OpenRosaError(tr("The form %@ on %@ lists the media file %@ without a download address.", form, server, name), kind: .notOpenRosa)
            }
            files.append(MediaFile(fileName: name, hash: hash, downloadURL: download))
        }
        return files
    }

    /// The message of an `OpenRosaResponse`, when `data` is one.
    static func responseMessage(_ data: Data) -> String? {
        guard let root = try? XMLTree.parse(data), root.name == "OpenRosaResponse" else { return nil }
        let message = root.children("message").map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        return message.isEmpty ? nil : String(message.prefix(500))
    }

    /// A name the server gave that can be a file's name here: one path
    /// component, not hidden, nothing that a file system reads specially.
    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && !name.hasPrefix(".") && !name.contains("/")
            && !name.contains("\\") && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    private static func document(_ data: Data, expecting name: String, what: String, server: String) throws(OpenRosaError) -> XMLTree {
        let root: XMLTree?
        do {
            root = try XMLTree.parse(data)
        } catch {
            throw OpenRosaError(tr("The %@ %@ sent is too large to read: %@.", what, server, error.reason), kind: .tooLarge)
        }
        guard let root, root.name == name else {
            throw OpenRosaError(notOpenRosa(data, what: what, server: server), kind: .notOpenRosa)
        }
        return root
    }

    /// Why `data` is not what an OpenRosa server sends, as specifically as
    /// can be told: a web page (a login portal, a proxy's error) is common.
    static func notOpenRosa(_ data: Data, what: String, server: String) -> String {
        let start = String(decoding: data.prefix(512), as: UTF8.self).lowercased()
        if start.contains("<html") || start.contains("<!doctype html") {
            return tr("%@ sent a web page where its %@ should be: the address is not that of an OpenRosa server (ODK Central's project address, KoboToolbox's or Ona's).", server, what)
        }
        return tr("%@ did not send an OpenRosa %@: the address is not that of an OpenRosa server, or the server is not working.", server, what)
    }

    private static func field(_ element: XMLTree, _ name: String) -> String {
        element.child(name)?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// An http(s) address, read relative to the document it was in.
    private static func address(_ text: String, relativeTo base: URL) -> URL? {
        guard !text.isEmpty, let url = URL(string: text, relativeTo: base)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return url
    }
}
