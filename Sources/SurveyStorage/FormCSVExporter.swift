public import FormEngine
public import Foundation

/// Writes the responses to one form as CSV, the way ODK Central names its
/// columns: `submitted_at`, one column per question in form order, named by
/// its path with `-` between group names (`household-member[2]-age` for a
/// repeat's second instance), then `instance_id`, `form_version` and
/// `started_at`. A select_multiple holds its choices' names separated by
/// spaces; a number is written as a number, an acknowledgement as `true` or
/// `false`; a question that was not relevant is empty. The file is made safe
/// for spreadsheets (see `CSVFile`).
public enum FormCSVExporter {
    /// The columns after the questions'.
    public static let trailingColumns = ["instance_id", "form_version", "started_at"]

    /// Writes every stored response to `definition`'s form (any version) to
    /// `url`; how many. A repeat gets columns for as many instances as the
    /// most any response has.
    @discardableResult
    public static func write(
        _ definition: FormDefinition, from store: ResponseStore, to url: URL, replacing: Bool
    ) throws -> Int {
        let formID = definition.settings.id
        return try write(definition, responses: { body in try store.forEachResponse(toForm: formID, body) },
                         to: url, replacing: replacing)
    }

    /// Writes the responses `responses` hands out (twice: once for the
    /// columns, once for the rows, in the same order) to `url`; how many.
    /// Without the form's definition (a form whose file is not at hand) the
    /// columns are every answer's path, in alphabetical order.
    @discardableResult
    public static func write(
        _ definition: FormDefinition?,
        responses: (_ body: (FormResponse) throws -> Void) throws -> Void,
        to url: URL, replacing: Bool
    ) throws -> Int {
        var repeatPaths = Set<String>()
        var allPaths = Set<String>()
        // A form without repeats has its columns in its definition: the
        // responses are read once, not twice.
        if definition?.allQuestions.contains(where: { $0.type == .repeatGroup }) ?? true {
            try responses { response in
                for answer in response.answers {
                    allPaths.insert(answer.path)
                    if answer.path.contains("[") { repeatPaths.insert(answer.path) }
                }
            }
        }
        let paths = definition.map { columnPaths(of: $0, repeatPaths: repeatPaths) }
            ?? allPaths.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        let header = ["submitted_at"] + paths.map { $0.replacingOccurrences(of: "/", with: "-") } + trailingColumns
        let kinds = definition.map(answerKinds(of:)) ?? [:]
        var count = 0
        try CSVFile.write(
            to: url, replacing: replacing, header: header,
            appendRow: { (response: FormResponse, bytes: inout [UInt8]) in
                var values: [String: FormResponse.Answer] = [:]
                for answer in response.answers { values[answer.path] = answer }
                CSVFile.appendTimestamp(response.submittedAt, to: &bytes)
                for path in paths {
                    bytes.append(0x2C)
                    guard let answer = values[path] else { continue }
                    appendCell(answer, kind: answer.kind ?? kinds[templatePath(path)], to: &bytes)
                }
                for text in [response.instanceID, response.formVersion] {
                    bytes.append(0x2C)
                    CSVFile.appendText(text, keepingLineBreaks: false, to: &bytes)
                }
                bytes.append(0x2C)
                CSVFile.appendTimestamp(response.startedAt, to: &bytes)
            },
            rows: { emit in
                // NB: Swift refuses one non-escaping closure passed into
                // another unless told that it stays put.
                try withoutActuallyEscaping(emit) { emit in
                    try responses { response in
                        try emit(response)
                        count += 1
                    }
                }
            }
        )
        return count
    }

    /// One answer as its kind is written: a number as it is (a text would
    /// get a spreadsheet's guard before `-`), an acknowledgement as a boolean.
    private static func appendCell(_ answer: FormResponse.Answer, kind: FormResponse.Kind?, to bytes: inout [UInt8]) {
        switch kind {
        case .boolean:
            bytes += (answer.value == "OK" ? "true" : "false").utf8
        case .number where Double(answer.value)?.isFinite == true:
            bytes += answer.value.utf8
        default:
            CSVFile.appendText(answer.value, keepingLineBreaks: true, to: &bytes)
        }
    }

    /// The kind of each answer `definition`'s questions give, by path
    /// (repeat instances' numbers left out), where it is more than text.
    public static func answerKinds(of definition: FormDefinition) -> [String: FormResponse.Kind] {
        var kinds: [String: FormResponse.Kind] = [:]
        for question in definition.allQuestions {
            if let kind = FormResponse.Kind(question.type) { kinds[question.pathString] = kind }
        }
        return kinds
    }

    /// `member[2]/age` → `member/age`: the question an answer's path is of.
    public static func templatePath(_ path: String) -> String {
        path.contains("[") ? path.replacing(/\[\d+\]/, with: "") : path
    }

    /// The answer paths a response to `definition` can have, in form order:
    /// every row that holds an answer (not groups, repeats or notes), and for
    /// rows inside repeats the instances `repeatPaths` names, in order.
    public static func columnPaths(of definition: FormDefinition, repeatPaths: Set<String>) -> [String] {
        // A stored repeat path without its instance numbers, and the numbers.
        func numbered(_ path: String) -> (String, [Int]) {
            var numbers: [Int] = []
            let segments = path.split(separator: "/").map { segment -> Substring in
                guard let open = segment.firstIndex(of: "["), segment.last == "]" else { return segment }
                numbers.append(Int(segment[segment.index(after: open)..<segment.index(before: segment.endIndex)]) ?? 0)
                return segment[..<open]
            }
            return (segments.joined(separator: "/"), numbers)
        }
        var instances: [String: [(path: String, numbers: [Int])]] = [:]
        for path in repeatPaths {
            let (key, numbers) = numbered(path)
            instances[key, default: []].append((path, numbers))
        }
        // Rows that hold an answer, in form order, and the outermost repeat
        // around each (whose instances are written one after another).
        var rows: [(path: String, outerRepeat: String?)] = []
        func walk(_ questions: [Question], outerRepeat: String?) {
            for question in questions {
                switch question.type {
                case .group: walk(question.children, outerRepeat: outerRepeat)
                case .repeatGroup: walk(question.children, outerRepeat: outerRepeat ?? question.pathString)
                case .note: continue
                default: rows.append((question.pathString, outerRepeat))
                }
            }
        }
        walk(definition.questions, outerRepeat: nil)

        var paths: [String] = []
        var index = 0
        while index < rows.count {
            guard let outer = rows[index].outerRepeat else {
                paths.append(rows[index].path)
                index += 1
                continue
            }
            // One repeat's rows: instance by instance, each in form order.
            var found: [(numbers: [Int], row: Int, path: String)] = []
            while index < rows.count, rows[index].outerRepeat == outer {
                for stored in instances[rows[index].path, default: []] {
                    found.append((stored.numbers, index, stored.path))
                }
                index += 1
            }
            found.sort { a, b in
                let (instanceA, instanceB) = (a.numbers.first ?? 0, b.numbers.first ?? 0)
                if instanceA != instanceB { return instanceA < instanceB }
                if a.row != b.row { return a.row < b.row }
                return a.numbers.lexicographicallyPrecedes(b.numbers)
            }
            paths += found.map(\.path)
        }
        return paths
    }
}

extension FormResponse.Kind {
    /// The kind of a question type's answers, where it is more than text.
    public init?(_ type: QuestionType) {
        switch type {
        case .integer, .decimal, .range: self = .number
        case .acknowledge: self = .boolean
        default: return nil
        }
    }
}
