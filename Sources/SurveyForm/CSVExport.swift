import Foundation
import SurveyStorage

/// `survey-form --export-csv PATH`: every stored response, no display needed.
@MainActor
enum CSVExport {
    /// Writes the file and says so; the process's exit status.
    static func run(to path: String) -> Int32 {
        do {
            let store = try ResponseStore(directory: DataLocation.dataDirectory)
            if let setAside = store.setAside {
                printError(damagedDatabaseMessage(setAside))
            }
            let count = try export(from: store, to: URL(fileURLWithPath: path))
            print(String(format: trn("Exported %d response to %@", "Exported %d responses to %@", count), Int32(count), path))
            return 0
        } catch {
            printError(error.localizedDescription)
            return 1
        }
    }

    /// Writes every response of `store` to `url` in submission order; how many.
    static func export(from store: ResponseStore, to url: URL) throws -> Int {
        let responses = try store.inSubmissionOrder()
        try CSVExporter.write(responses, to: url)
        return responses.count
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data("\(AppInfo.executable): \(message)\n".utf8))
    }
}

/// What the user is told about a damaged database that was moved aside.
@MainActor
func damagedDatabaseMessage(_ setAside: SetAsideFile) -> String {
    String(
        format: tr("The response database was damaged. It was moved to %@ and a new one was started."),
        setAside.movedTo.path
    )
}
