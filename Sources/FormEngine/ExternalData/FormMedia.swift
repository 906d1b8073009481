public import Foundation

/// Where a form's data files are found: ODK's media folder for the form
/// (`household-media/` beside `household.xlsx`), then the form's own folder.
///
/// Only plain file names are looked up, so a form cannot reach outside those
/// folders; a file is read whole, once, within `FormLimits.dataFileBytes`.
public struct FormMedia: Sendable {
    /// The folders searched, in order.
    public let folders: [URL]

    /// Searches `folders` in order.
    public init(folders: [URL]) {
        self.folders = folders
    }

    /// The media of the form file at `url`: `NAME-media/` beside it, then its folder.
    public init(besideFormAt url: URL) {
        let folder = url.deletingLastPathComponent()
        let stem = url.deletingPathExtension().lastPathComponent
        self.init(folders: [folder.appendingPathComponent(stem + "-media", isDirectory: true), folder])
    }

    /// No folder: a form read from memory, which has no files beside it.
    public static let none = FormMedia(folders: [])

    /// Why a data file could not be read.
    public enum Failure: Error, Equatable {
        /// In no folder searched (or not a plain file name).
        case missing
        /// Larger than `FormLimits.dataFileBytes`.
        case tooLarge
        /// There, but the system would not give its bytes.
        case unreadable(String)
    }

    /// The bytes of the file called `name` in the first folder that has it.
    public func data(named name: String) throws(Failure) -> Data {
        guard let url = url(named: name) else { throw .missing }
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int,
           size > FormLimits.dataFileBytes { throw .tooLarge }
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            // Read to one byte past the limit: a file that grew since is still refused.
            let data = try handle.read(upToCount: FormLimits.dataFileBytes + 1) ?? Data()
            guard data.count <= FormLimits.dataFileBytes else { throw Failure.tooLarge }
            return data
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .unreadable(error.localizedDescription)
        }
    }

    /// Where the file called `name` is: the first folder that has it as a
    /// regular file, or nil (also for a name that is not a plain file name).
    /// A name no folder has as written is matched without regard to letter
    /// case, as on the phone storage Collect reads media from
    /// (`itemSets.csv` for `itemsets.csv`), if one file alone matches so.
    public func url(named name: String) -> URL? {
        guard Self.isPlainName(name) else { return nil }
        if let exact = folders.lazy.map({ $0.appendingPathComponent(name, isDirectory: false) }).first(where: Self.isRegularFile) {
            return exact
        }
        for folder in folders {
            // Bounded: a folder of more names than a form's media has is not searched.
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path),
                  names.count <= Self.namesSearched else { continue }
            let matches = names.filter { $0.caseInsensitiveCompare(name) == .orderedSame }
                .map { folder.appendingPathComponent($0, isDirectory: false) }
                .filter(Self.isRegularFile)
            if matches.count == 1 { return matches[0] }
            // Two that differ by case alone: neither is taken for the other.
            if matches.count > 1 { return nil }
        }
        return nil
    }

    /// The most names a folder may hold for a name to be matched in it
    /// regardless of case.
    static let namesSearched = 10_000

    private static func isRegularFile(_ url: URL) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType == .typeRegular
    }

    /// The folders as a person would look for them, for messages.
    public var searchedPlaces: String {
        folders.map(\.path).joined(separator: " or ")
    }

    private static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }
}
