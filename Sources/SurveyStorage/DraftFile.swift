import Foundation
import FormEngine

/// The file handling every draft shares: JSON written atomically and kept
/// private, read back or, when damaged, moved aside and never deleted.
enum DraftFile {
    enum ReadResult<Content> {
        case none
        case read(Content)
        case setAside(SetAsideFile)
    }

    /// Replaces `url` with `content` as JSON (dates in ISO 8601, keys sorted).
    static func write(_ content: some Encodable, to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        do {
            let data = try encoder.encode(content)
            try PrivateFiles.prepareFolder(url.deletingLastPathComponent())
            try AtomicFile.write(data, to: url, existing: .replace)
            // A draft an older version left readable by others stops being so.
            try PrivateFiles.restrict(url)
        } catch {
            throw StorageError(tr("The draft was not saved: %@", error.localizedDescription))
        }
    }

    /// Reads `url`; a file that does not decode, or that `accept` refuses
    /// (written by a newer version), is moved aside.
    static func read<Content: Decodable>(
        _ type: Content.Type, from url: URL, accept: (Content) -> Bool
    ) throws -> ReadResult<Content> {
        guard FileManager.default.fileExists(atPath: url.path) else { return .none }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        if let data = try? contents(of: url), let content = try? decoder.decode(type, from: data), accept(content) {
            return .read(content)
        }
        do {
            return .setAside(try SetAsideFile.moveAside(url))
        } catch {
            throw StorageError(tr("The draft %@ is damaged and could not be moved aside: %@", url.path, error.localizedDescription))
        }
    }

    /// What `url` holds, or `nil` when it cannot be read or decoded; a
    /// damaged file is left where it is (for a look that must change nothing).
    static func peek<Content: Decodable>(_ type: Content.Type, at url: URL) -> Content? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let data = try? contents(of: url) else { return nil }
        return try? decoder.decode(type, from: data)
    }

    /// The most a draft file may hold: 10,000 repeat instances (the cap a
    /// form's repeats share) of a few dozen answers each fit many times
    /// over; anything bigger was not written by this app, and is set aside
    /// rather than read into memory.
    static let maximumBytes = 128 << 20

    /// The bytes of `url`, if it is a regular file of at most `maximumBytes`.
    private static func contents(of url: URL) throws -> Data? {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        guard attributes[.type] as? FileAttributeType == .typeRegular,
              let size = attributes[.size] as? Int, size <= maximumBytes else { return nil }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        // Never more than the cap, even from a file that grew since.
        guard let data = try handle.read(upToCount: maximumBytes + 1), data.count <= maximumBytes else { return nil }
        return data
    }

    /// Removes `url`; no file is not an error.
    static func remove(_ url: URL) throws {
        do {
            try FileManager.default.removeItem(at: url)
        } catch CocoaError.fileNoSuchFile {
            return
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return }
            throw StorageError(tr("The draft could not be removed: %@", error.localizedDescription))
        }
    }
}
