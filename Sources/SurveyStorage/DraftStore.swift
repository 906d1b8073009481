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
        /// The answers of the last session, the response's instance id and
        /// when it was started (`nil` in a draft from before either was kept).
        case restored(SurveyAnswers, instanceID: String?, startedAt: Date? = nil)
        /// The draft was damaged and moved aside.
        case setAside(SetAsideFile)
    }

    private struct File: Codable {
        var version: Int
        var savedAt: Date
        var answers: SurveyAnswers
        var instanceID: String?
        var startedAt: Date?
    }

    private static let currentVersion = 1

    /// The draft file.
    public let url: URL

    public init(directory: URL) {
        url = directory.appendingPathComponent(Self.fileName)
    }

    /// Replaces the draft with `answers` of the response `instanceID`,
    /// started at `startedAt`.
    public func save(
        _ answers: SurveyAnswers, instanceID: String? = nil, startedAt: Date? = nil, at date: Date = Date()
    ) throws {
        let file = File(version: Self.currentVersion, savedAt: date, answers: answers, instanceID: instanceID, startedAt: startedAt)
        try DraftFile.write(file, to: url)
    }

    /// Reads the draft left by the last session.
    public func load() throws -> LoadResult {
        switch try DraftFile.read(File.self, from: url, accept: { $0.version <= Self.currentVersion }) {
        case .none: .none
        case .read(let file): .restored(file.answers, instanceID: file.instanceID, startedAt: file.startedAt)
        case .setAside(let file): .setAside(file)
        }
    }

    /// Removes the draft, as after a submit. No draft is not an error.
    public func discard() throws {
        try DraftFile.remove(url)
    }
}
