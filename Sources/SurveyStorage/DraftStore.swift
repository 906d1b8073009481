public import Foundation
public import SurveyModel

/// The answers being typed, kept in a file so that they survive a crash.
///
/// Each save replaces the file atomically: a crash leaves the previous draft or
/// the new one, never half of one. A draft that cannot be read is moved aside
/// with a message, never deleted.
public final class DraftStore: Sendable {
    /// The draft's file name inside the data folder.
    public static let fileName = "draft.json"

    /// What loading found.
    public enum LoadResult: Sendable, Equatable {
        /// No draft: a clean start.
        case none
        /// The answers of the last session, and the response's instance id
        /// (`nil` in a draft from before instance ids).
        case restored(SurveyAnswers, instanceID: String?)
        /// The draft was damaged and moved aside.
        case setAside(SetAsideFile)
    }

    private struct File: Codable {
        var version: Int
        var savedAt: Date
        var answers: SurveyAnswers
        var instanceID: String?
    }

    private static let currentVersion = 1

    /// The draft file.
    public let url: URL

    public init(directory: URL) {
        url = directory.appendingPathComponent(Self.fileName)
    }

    /// Replaces the draft with `answers` of the response `instanceID`.
    public func save(_ answers: SurveyAnswers, instanceID: String? = nil, at date: Date = Date()) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        do {
            let file = File(version: Self.currentVersion, savedAt: date, answers: answers, instanceID: instanceID)
            let data = try encoder.encode(file)
            try PrivateFiles.prepareFolder(url.deletingLastPathComponent())
            try AtomicFile.write(data, to: url, existing: .replace)
            // A draft an older version left readable by others stops being so.
            try PrivateFiles.restrict(url)
        } catch {
            throw StorageError(tr("The draft was not saved: %@", error.localizedDescription))
        }
    }

    /// Reads the draft left by the last session.
    public func load() throws -> LoadResult {
        guard FileManager.default.fileExists(atPath: url.path) else { return .none }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            let data = try Data(contentsOf: url)
            let file = try decoder.decode(File.self, from: data)
            guard file.version <= Self.currentVersion else {
                throw StorageError(tr("The draft was written by a newer version."))
            }
            return .restored(file.answers, instanceID: file.instanceID)
        } catch {
            do {
                return .setAside(try SetAsideFile.moveAside(url))
            } catch {
                throw StorageError(tr("The draft %@ is damaged and could not be moved aside: %@", url.path, error.localizedDescription))
            }
        }
    }

    /// Removes the draft, as after a submit. No draft is not an error.
    public func discard() throws {
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
