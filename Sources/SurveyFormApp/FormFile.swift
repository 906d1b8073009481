import FormEngine
import Foundation

/// A form that can run, from a file (`.xlsx`, `.xls`, `.csv`, `.md`, an XForm's `.xml`) or built in,
/// or why not: the built-in survey is its embedded `survey.md`, read and
/// run exactly as a file is.
///
/// Reading and planning never touch GTK: the window does both off its
/// thread (`read(path:)`) and only builds the controls on it.
struct FormFile: Sendable {
    /// Where a form comes from.
    enum Origin: Sendable, Equatable {
        /// A file, by its absolute path.
        case file(String)
        /// The survey compiled into the app (`BuiltInSurvey`).
        case builtIn
    }

    let origin: Origin
    /// The form, planned for running.
    let plan: FormPlan

    var definition: FormDefinition { plan.definition }

    /// The file's absolute path; `nil` for the built-in survey.
    var path: String? {
        if case .file(let path) = origin { return path }
        return nil
    }

    /// The form's id and version, as responses are stored under them.
    var id: String { definition.settings.id }
    var version: String { definition.settings.version ?? "" }

    /// The form's title, as the window shows it: the built-in survey's in
    /// the user's language, a file's as the form gives it.
    var title: String {
        origin == .builtIn ? tr(definition.settings.title) : definition.settings.title
    }

    /// The built-in survey, planned once (its reading may have started in
    /// the background, see `BuiltInSurvey.readInBackground`).
    @MainActor static let builtIn: FormFile = {
        let plan = FormPlan(BuiltInSurvey.definition)
        // The form is part of the binary and checked by its tests.
        precondition(plan.problems.isEmpty, "The built-in survey cannot run: \(plan.problems)")
        return FormFile(origin: .builtIn, plan: plan)
    }()

    /// Reads and checks the form at `path` on the calling thread (the
    /// command line's modes): its problems, each naming its row, when it
    /// cannot run.
    static func load(path: String) -> Result<FormFile, FormFileError> {
        load(path: path, stopping: { false }) ?? .failure(FormFileError(path: path, problems: []))
    }

    /// Reads and checks the form at `path` off the main thread; `nil` once
    /// the task is cancelled, which stops the work between its steps (each
    /// is bounded by `FormLimits`).
    static func read(path: String) async -> Result<FormFile, FormFileError>? {
        try? await offMainThread { load(path: path, pausing: true, stopping: { Task.isCancelled }) }
    }

    /// A FIFO the end-to-end tests name in `SURVEY_FORM_TEST_HOLD_OPENING`:
    /// a reading for the window waits, once the file is read, until the test
    /// has written to it and closed it, so that the test sees the window
    /// while a form is being opened, whatever the machine's speed.
    private static let holdForTesting = ProcessInfo.processInfo.environment["SURVEY_FORM_TEST_HOLD_OPENING"]

    private static func load(path: String, pausing: Bool = false, stopping: () -> Bool) -> Result<FormFile, FormFileError>? {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let definition: FormDefinition
        do {
            definition = try FormDefinition(contentsOf: url)
        } catch {
            return .failure(FormFileError(path: url.path, problems: error.problems.map { "\($0)" }))
        }
        if pausing, let holdForTesting {
            _ = try? FileHandle(forReadingFrom: URL(fileURLWithPath: holdForTesting)).readToEnd()
        }
        if stopping() { return nil }
        // Its data files (`select_one_from_file`, `pulldata()`) sit beside it or in its media folder.
        let plan = FormPlan(definition, media: FormMedia(besideFormAt: url))
        if stopping() { return nil }
        guard plan.problems.isEmpty else {
            return .failure(FormFileError(path: url.path, problems: plan.problems.map { "\($0)" }))
        }
        return .success(FormFile(origin: .file(url.path), plan: plan))
    }
}

/// Why a form file cannot be opened: one line per problem.
struct FormFileError: Error, Sendable {
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
