/// One thing wrong with a form, placed where its author can find it.
public struct FormProblem: Sendable, Hashable, CustomStringConvertible {
    /// The sheet (`survey`, `choices`, `settings`), or `nil` for the whole file.
    public var sheet: String?
    /// The sheet's row, counted as the spreadsheet counts them (the header is 1).
    public var row: Int?
    /// What is wrong, and where it helps, what to do.
    public var message: String

    /// Creates a problem.
    public init(sheet: String? = nil, row: Int? = nil, _ message: String) {
        self.sheet = sheet
        self.row = row
        self.message = message
    }

    /// `survey row 7: …`, `choices: …`, or the message alone.
    public var description: String {
        switch (sheet, row) {
        case let (sheet?, row?): "\(sheet) row \(row): \(message)"
        case let (sheet?, nil): "\(sheet): \(message)"
        default: message
        }
    }
}

/// A form that cannot be used, with every problem found in it.
public struct FormDefinitionError: Error, Sendable, CustomStringConvertible {
    /// The problems, in the order of the form's sheets and rows.
    public var problems: [FormProblem]

    /// Creates an error from its problems.
    public init(_ problems: [FormProblem]) {
        self.problems = problems
    }

    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
