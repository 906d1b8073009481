public import Foundation
import FormEngine
import GRDB

/// The files answers name (photos, recordings, documents), one folder per
/// response in the data folder's `attachments` folder, as ODK Collect keeps
/// an instance's media beside it. Each file is written whole or not at all
/// and synced before its name is handed out, private like the responses;
/// its name is Collect's (`<milliseconds>.<extension>`), which is what the
/// answer, the CSV and the server hold.
///
/// A file stays until its response no longer names it: `keepOnly` after a
/// submit, `removeFolders(except:)` for responses and drafts that are gone.
public struct AttachmentStore: Sendable {
    /// The folder's name inside the data folder.
    public static let folderName = "attachments"
    /// The largest file taken: nothing read is trusted for size, and a
    /// response must still fit a server's upload.
    public static let largestFile: Int64 = 1 << 30

    /// The folder holding every response's folder.
    public let folder: URL

    public init(directory: URL) {
        folder = directory.appendingPathComponent(Self.folderName, isDirectory: true)
    }

    /// The folder of the response `instanceID`.
    public func folder(forInstance instanceID: String) -> URL {
        folder.appendingPathComponent(FormDraftStore.fileName(instanceID), isDirectory: true)
    }

    /// The file `name` of the response `instanceID`, or `nil` when `name`
    /// is not a plain file name (an answer is never trusted as a path).
    public func url(of name: String, instanceID: String) -> URL? {
        guard Self.isPlainName(name) else { return nil }
        return folder(forInstance: instanceID).appendingPathComponent(name, isDirectory: false)
    }

    /// Copies the file at `source` into the response's folder, a piece at a
    /// time, and returns its new name, which ends in `fileExtension`.
    public func add(copying source: URL, fileExtension: String, instanceID: String) throws -> String {
        guard let input = FileHandle(forReadingAtPath: source.path) else {
            throw StorageError(tr("%@ cannot be read: %@.", source.lastPathComponent, String(cString: strerror(errno))))
        }
        defer { try? input.close() }
        return try add(fileExtension: fileExtension, instanceID: instanceID) { append in
            var total: Int64 = 0
            while true {
                let piece: Data
                do {
                    piece = try input.read(upToCount: 1 << 20) ?? Data()
                } catch {
                    throw StorageError(tr("%@ cannot be read: %@.", source.lastPathComponent, error.localizedDescription))
                }
                if piece.isEmpty { break }
                total += Int64(piece.count)
                guard total <= Self.largestFile else {
                    throw StorageError(tr("%@ is larger than %@, the most a response can carry.", source.lastPathComponent, "1 GiB"))
                }
                try append(piece)
            }
        }
    }

    /// Stores `data` (an image scaled down, a drawing) in the response's
    /// folder and returns its new name.
    public func add(_ data: Data, fileExtension: String, instanceID: String) throws -> String {
        try add(fileExtension: fileExtension, instanceID: instanceID) { append in try append(data) }
    }

    /// Writes `data` as the response's file `name` (`audit.csv`), replacing
    /// one of that name: for a file the app names itself.
    public func write(_ data: Data, named name: String, instanceID: String) throws {
        let target = folder(forInstance: instanceID)
        guard let url = url(of: name, instanceID: instanceID) else {
            throw StorageError(tr("%@ is not a file name.", name))
        }
        do {
            try PrivateFiles.prepareFolder(folder)
            try PrivateFiles.prepareFolder(target)
        } catch {
            throw StorageError(tr("Could not create the attachments folder %@: %@", target.path, error.localizedDescription))
        }
        try AtomicFile.write(data, to: url, existing: .replace)
    }

    /// The response's own folder, made private (with the attachments
    /// folder) if it is not yet.
    private func preparedFolder(forInstance instanceID: String) throws -> URL {
        let target = folder(forInstance: instanceID)
        do {
            try PrivateFiles.prepareFolder(folder)
            try PrivateFiles.prepareFolder(target)
        } catch {
            throw StorageError(tr("Could not create the attachments folder %@: %@", target.path, error.localizedDescription))
        }
        return target
    }

    private func add(
        fileExtension: String, instanceID: String, _ produce: (_ append: (Data) throws -> Void) throws -> Void
    ) throws -> String {
        let target = try preparedFolder(forInstance: instanceID)
        let suffix = Self.cleanExtension(fileExtension).map { "." + $0 } ?? ""
        var stamp = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        // Two files in one millisecond: the next free number, as names are never reused.
        while true {
            let name = "\(stamp)\(suffix)"
            do {
                try AtomicFile.write(to: target.appendingPathComponent(name), existing: .refuse, produce)
                return name
            } catch let error as StorageError where error.code == .fileExists {
                stamp += 1
            }
        }
    }

    /// Removes the response's files that `names` does not hold: those
    /// replaced or removed while it was filled in.
    public func keepOnly(_ names: Set<String>, instanceID: String) throws {
        let target = folder(forInstance: instanceID)
        guard let present = try? FileManager.default.contentsOfDirectory(atPath: target.path) else { return }
        for name in present where !names.contains(name) {
            try FileManager.default.removeItem(at: target.appendingPathComponent(name))
        }
        if (try? FileManager.default.contentsOfDirectory(atPath: target.path))?.isEmpty == true {
            try? FileManager.default.removeItem(at: target)
        }
    }

    /// Removes the folders of every response not in `instanceIDs` (neither
    /// stored nor being filled in), and returns how many went.
    @discardableResult
    public func removeFolders(except instanceIDs: Set<String>) throws -> Int {
        let kept = Set(instanceIDs.map { FormDraftStore.fileName($0) })
        guard let present = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        var removed = 0
        for name in present where !kept.contains(name) {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name, isDirectory: true))
            removed += 1
        }
        return removed
    }

    /// Copies the files `names` of the response `instanceID` into `target`,
    /// as an export does; a file that is missing is left out and named in
    /// the result.
    public func copy(_ names: [String], instanceID: String, to target: URL) throws -> [String] {
        var missing: [String] = []
        for name in names {
            guard let source = url(of: name, instanceID: instanceID),
                  FileManager.default.fileExists(atPath: source.path) else {
                missing.append(name)
                continue
            }
            guard let input = FileHandle(forReadingAtPath: source.path) else {
                missing.append(name)
                continue
            }
            defer { try? input.close() }
            try AtomicFile.write(to: target.appendingPathComponent(name), existing: .replace) { append in
                while let piece = try input.read(upToCount: 1 << 20), !piece.isEmpty { try append(piece) }
            }
        }
        return missing
    }

    /// Gives the response `newInstanceID` (an edit) copies of the files
    /// `names` of the response `instanceID` (the revision it replaces),
    /// under the same names, so that its answers name them as they did;
    /// a file that is missing is left out and named in the result.
    public func carry(_ names: [String], from instanceID: String, to newInstanceID: String) throws -> [String] {
        return try copy(names, instanceID: instanceID, to: preparedFolder(forInstance: newInstanceID))
    }

    /// The bytes the files `names` of the response take (missing ones none).
    public func size(of names: [String], instanceID: String) -> Int {
        names.reduce(0) { total, name in
            guard let url = url(of: name, instanceID: instanceID),
                  let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber else { return total }
            return total + size.intValue
        }
    }

    /// The bytes of the file `name` of the response, or `nil` when it is
    /// missing or not a plain file (a sender sends the response without it).
    public func contents(of name: String, instanceID: String) -> Data? {
        guard let url = url(of: name, instanceID: instanceID),
              let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.intValue, size <= Self.largestFile else { return nil }
        return try? Data(contentsOf: url)
    }

    /// A name with no folder in it: what every stored name is.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
            && name.utf8.count <= 255
    }

    /// A file's extension as a stored name ends: lower case letters and
    /// digits, at most ten; `nil` for none.
    static func cleanExtension(_ text: String) -> String? {
        let cleaned = String(text.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            .map(Character.init).prefix(10))
        return cleaned.isEmpty ? nil : cleaned
    }
}

extension ResponseStore {
    /// Removes the files of responses that are gone: neither stored (a
    /// response deleted, once its Undo has passed with the session) nor
    /// being filled in (a draft discarded, or never saved before a crash).
    /// Run once as the app starts, before a window can take a file; when a
    /// draft cannot be read, nothing is removed.
    static func removeUnusedAttachments(directory: URL, queue: DatabaseQueue) {
        let attachments = AttachmentStore(directory: directory)
        guard FileManager.default.fileExists(atPath: attachments.folder.path),
              let drafts = FormDraftStore(directory: directory).allInstanceIDs(),
              let stored = try? queue.read({ db in try String.fetchSet(db, sql: "SELECT instanceID FROM form_response") })
        else { return }
        _ = try? attachments.removeFolders(except: stored.union(drafts))
    }
}
