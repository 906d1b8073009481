import FormEngine
import Foundation

/// A form opened from a file (`.xlsx`, `.csv`, `.md`) that can run, or why not.
struct FormFile {
    /// The file's absolute path.
    let path: String
    let definition: FormDefinition

    /// The form's id and version, as responses are stored under them.
    var id: String { definition.settings.id }
    var version: String { definition.settings.version ?? "" }

    /// Reads and checks the form at `path`: its problems, each naming its
    /// row, when it cannot run.
    @MainActor
    static func load(path: String) -> Result<FormFile, FormFileError> {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let definition: FormDefinition
        do {
            definition = try FormDefinition(contentsOf: url)
        } catch {
            return .failure(FormFileError(path: url.path, problems: error.problems.map { "\($0)" }))
        }
        let problems = FormViewModel.problems(of: definition)
        guard problems.isEmpty else {
            return .failure(FormFileError(path: url.path, problems: problems.map { "\($0)" }))
        }
        return .success(FormFile(path: url.path, definition: definition))
    }
}

/// Why a form file cannot be opened: one line per problem.
struct FormFileError: Error {
    let path: String
    let problems: [String]

    /// The heading and one line per problem.
    var lines: [String] {
        [String(format: tr("The form %@ cannot be used:"), path)] + problems
    }

    /// The lines, control characters escaped, for a dialog.
    var message: String {
        lines.map(Terminal.escaped).joined(separator: "\n")
    }
}
