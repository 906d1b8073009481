import Foundation
import SurveyStorage

/// A folder of its own for one test, removed afterwards.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("survey-form-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    /// Puts here a response database that a newer version of Survey Form
    /// has migrated further, holding `responses`.
    func makeNewerVersionsDatabase(holding responses: [FormResponse] = []) throws {
        let store = try ResponseStore(directory: url)
        for response in responses { try store.insert(response) }
        try store._recordMigration("v99: from a newer version")
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
