import Foundation
import SurveyModel

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
        if let data = try? Data(contentsOf: url), let content = try? decoder.decode(type, from: data), accept(content) {
            return .read(content)
        }
        do {
            return .setAside(try SetAsideFile.moveAside(url))
        } catch {
            throw StorageError(tr("The draft %@ is damaged and could not be moved aside: %@", url.path, error.localizedDescription))
        }
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
