public import Foundation

/// A response to a form from a file, being filled in: kept so that it
/// survives a crash, and so that a new version of the form can take it over.
public struct FormDraft: Sendable, Equatable, Codable {
    public var formID: String
    public var formVersion: String
    public var instanceID: String
    public var startedAt: Date
    public var savedAt: Date
    /// Answers by path, in form order, as `FormResponse` keeps them.
    public var answers: [FormResponse.Answer]
    /// For an edit of a stored response, the instance id of the revision it
    /// replaces: a draft restored after a crash is still that edit.
    public var deprecatedID: String?

    public init(
        formID: String, formVersion: String, instanceID: String, startedAt: Date, savedAt: Date = Date(),
        answers: [FormResponse.Answer], deprecatedID: String? = nil
    ) {
        self.formID = formID
        self.formVersion = formVersion
        self.instanceID = instanceID
        self.startedAt = startedAt
        self.savedAt = savedAt
        self.answers = answers
        self.deprecatedID = deprecatedID
    }
}

/// One draft per form id and version, each in its own file in the data
/// folder's `form-drafts` folder, written atomically and kept private like
/// the built-in survey's draft.
public final class FormDraftStore: Sendable {
    /// What loading a form's draft found.
    public enum LoadResult: Sendable, Equatable {
        case none
        case restored(FormDraft)
        /// The draft was damaged and moved aside.
        case setAside(SetAsideFile)
    }

    private struct File: Codable {
        var version: Int
        var draft: FormDraft
    }

    private static let currentVersion = 1
    private static let fileExtension = "json"

    /// The folder holding the drafts.
    public let folder: URL

    public init(directory: URL) {
        folder = directory.appendingPathComponent("form-drafts", isDirectory: true)
    }

    /// The file of the draft for `formID` at `version`.
    public func url(formID: String, version: String) -> URL {
        folder.appendingPathComponent("\(Self.fileName(formID))@\(Self.fileName(version)).\(Self.fileExtension)")
    }

    /// Replaces the draft of `draft`'s form and version.
    public func save(_ draft: FormDraft) throws {
        try DraftFile.write(File(version: Self.currentVersion, draft: draft), to: url(formID: draft.formID, version: draft.formVersion))
    }

    /// Reads the draft for `formID` at `version`. The built-in survey's
    /// draft from before the one form stack becomes its form draft first
    /// (see `LegacySurvey`); a damaged one is moved aside and said so.
    public func load(formID: String, version: String) throws -> LoadResult {
        if formID == LegacySurvey.formID, version == LegacySurvey.formVersion, let damaged = try takeOverSurveyDraft() {
            return .setAside(damaged)
        }
        return try loadOwn(formID: formID, version: version)
    }

    /// The draft for `formID` at `version` in this store's own files.
    func loadOwn(formID: String, version: String) throws -> LoadResult {
        var url = url(formID: formID, version: version)
        // A draft an earlier release saved under the unshortened name.
        if let earlier = earlierURL(formID: formID, version: version), earlier != url,
           !FileManager.default.fileExists(atPath: url.path), FileManager.default.fileExists(atPath: earlier.path) {
            url = earlier
        }
        return switch try read(url) {
        case .none: .none
        case .read(let draft): .restored(draft)
        case .setAside(let file): .setAside(file)
        }
    }

    /// Drafts for `formID` at versions other than `version`, newest saved
    /// first. Damaged ones are moved aside and left out.
    public func drafts(of formID: String, otherThan version: String) -> [FormDraft] {
        let prefix = Self.fileName(formID) + "@"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix("." + Self.fileExtension) }
            .map { folder.appendingPathComponent($0) }
            .filter { $0 != url(formID: formID, version: version) }
            .compactMap { url in
                guard case .read(let draft) = try? read(url), draft.formID == formID else { return nil }
                return draft
            }
            .sorted { $0.savedAt > $1.savedAt }
    }

    /// The instance ids of every draft kept, of any form; `nil` when a draft
    /// cannot be read (its files must then be kept, whatever it names).
    public func allInstanceIDs() -> Set<String>? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            return FileManager.default.fileExists(atPath: folder.path) ? nil : []
        }
        var ids: Set<String> = []
        for name in names where name.hasSuffix("." + Self.fileExtension) {
            guard let file = DraftFile.peek(File.self, at: folder.appendingPathComponent(name)) else { return nil }
            ids.insert(file.draft.instanceID)
        }
        return ids
    }

    /// Removes the draft for `formID` at `version`, as after a submit.
    public func discard(formID: String, version: String) throws {
        try DraftFile.remove(url(formID: formID, version: version))
        if let earlier = earlierURL(formID: formID, version: version), earlier != url(formID: formID, version: version) {
            try DraftFile.remove(earlier)
        }
    }

    /// Where releases before names were shortened kept the draft, when that
    /// name could exist at all (a file name is at most 255 bytes).
    private func earlierURL(formID: String, version: String) -> URL? {
        let name = "\(Self.fileName(formID, shortened: false))@\(Self.fileName(version, shortened: false)).\(Self.fileExtension)"
        return name.utf8.count <= 255 ? folder.appendingPathComponent(name) : nil
    }

    private func read(_ url: URL) throws -> DraftFile.ReadResult<FormDraft> {
        switch try DraftFile.read(File.self, from: url, accept: { $0.version <= Self.currentVersion }) {
        case .none: .none
        case .read(let file): .read(file.draft)
        case .setAside(let file): .setAside(file)
        }
    }

    /// A form id or version as part of a file name: letters, digits, `.`,
    /// `_` and `-` as they are, every other byte as `%XX`, so that no id can
    /// reach outside the folder or meet another's name.
    static func fileName(_ text: String, shortened: Bool = true) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-".utf8)
        var name = ""
        for byte in text.utf8 {
            guard !shortened || name.utf8.count < longestPart else { break }
            if safe.contains(byte) { name.unicodeScalars.append(Unicode.Scalar(byte)) } else { name += String(format: "%%%02X", byte) }
        }
        // `.` is escaped too, so that no name is `.` or `..`; an empty one is spelled out.
        guard shortened, name.utf8.count >= longestPart else { return name.isEmpty ? "%" : name }
        // A file name is at most 255 bytes, and an id and a version share one: a
        // long one keeps a readable start and ends in a hash of the whole text.
        // `~` is escaped in every other name, so none can look like this.
        return String(name.prefix(keptPart)) + "~" + String(StableHash.of(text), radix: 16)
    }

    /// The longest part a name keeps whole, and how much of a longer one is kept.
    private static let longestPart = 120
    private static let keptPart = 100


}
