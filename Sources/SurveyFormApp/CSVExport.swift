import Foundation
import SurveyStorage

/// `survey-form --export-csv PATH [--force] [--form FILE]`: every stored
/// response to the built-in survey (or to the form in FILE), no display
/// needed. It only reads the database, and fails (exit 1) rather than
/// write a header-only file when there is no healthy database to read: a
/// nightly job must not replace yesterday's export with nothing.
@MainActor
enum CSVExport {
    /// Writes the file and says so; the process's exit status.
    static func run(to path: String, replacing: Bool, form formPath: String? = nil) -> Int32 {
        var form: FormFile?
        if let formPath {
            switch FormFile.load(path: formPath) {
            case .success(let loaded): form = loaded
            case .failure(let error):
                printError(error.message)
                return 2
            }
        }
        do {
            let store = try ResponseStore.openExisting(directory: DataLocation.dataDirectory)
            let exported = try export(from: store, form: form, to: URL(fileURLWithPath: path), replacing: replacing)
            Terminal.say(exported.report(path: path))
            return exported.media?.missing.isEmpty == false ? 1 : 0
        } catch let error as StorageError where error.code == .fileExists {
            printError(String(format: tr("%@ already exists: nothing was exported. Add --force to replace it."), path))
            return 1
        } catch {
            printError(error.localizedDescription)
            return 1
        }
    }

    /// Writes every response of `store` to `form` (the built-in survey when
    /// `nil`) to `url` in submission order; how many. Never into the data
    /// folder, where it could take the database's place.
    static func export(from store: ResponseStore, form: FormFile? = nil, to url: URL, replacing: Bool) throws -> Exported {
        if isInDataFolder(url) {
            throw StorageError(String(
                format: tr("%@ is in Survey Form's data folder: nothing was exported. Choose a place outside %@."),
                url.path, DataLocation.dataDirectory.path
            ))
        }
        let definition = form?.definition ?? BuiltInSurvey.definition
        let count = try FormCSVExporter.write(definition, from: store, to: url, replacing: replacing)
        return Exported(count: count, media: try FormCSVExporter.writeAttachments(definition, from: store, besideCSV: url))
    }

    /// What an export wrote: its responses, and their files beside them.
    @MainActor
    struct Exported {
        var count: Int
        var media: AttachmentExport?

        /// The line that says so.
        func report(path: String) -> String {
            var lines = [String(format: trn("Exported %d response to %@", "Exported %d responses to %@", count), Int32(count), path)]
            if let media {
                lines.append(String(format: trn("and %d file to %@", "and %d files to %@", media.copied), Int32(media.copied), media.folder.path))
                if !media.missing.isEmpty {
                    lines.append(String(format: tr("These files were missing and were not exported: %@"), media.missing.joined(separator: ", ")))
                }
            }
            return lines.joined(separator: "\n")
        }
    }

    /// Whether `url`'s folder is the data folder or inside it, links resolved.
    private static func isInDataFolder(_ url: URL) -> Bool {
        let folder = url.deletingLastPathComponent().resolvingSymlinksInPath().standardizedFileURL.path
        let data = DataLocation.dataDirectory.resolvingSymlinksInPath().standardizedFileURL.path
        return folder == data || folder.hasPrefix(data + "/")
    }

    private static func printError(_ message: String) {
        Terminal.error(message)
    }
}
