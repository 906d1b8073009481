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
        return try write(definition, rows: { body in try store.forEachResponseBytes(toForm: formID, body) },
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
        let row = ResponseBytes()
        return try write(definition, rows: { body in
            try withoutActuallyEscaping(body) { body in
                try responses { response in
                    row.fill(from: response)
                    try body(row)
                }
            }
        }, to: url, replacing: replacing)
    }

    private static func write(
        _ definition: FormDefinition?,
        rows: (_ body: (ResponseBytes) throws -> Void) throws -> Void,
        to url: URL, replacing: Bool
    ) throws -> Int {
        var repeatPaths = Set<String>()
        var allPaths = Set<String>()
        // A form without repeats has its columns in its definition: the
        // responses are read once, not twice.
        if definition?.allQuestions.contains(where: { $0.type == .repeatGroup }) ?? true {
            try rows { row in
                for answer in row.answers {
                    row.withBytes(answer.path) { path in
                        let inRepeat = path.contains(UInt8(ascii: "["))
                        guard inRepeat || definition == nil else { return }
                        let text = String(decoding: path, as: UTF8.self)
                        allPaths.insert(text)
                        if inRepeat { repeatPaths.insert(text) }
                    }
                }
            }
        }
        let paths = definition.map { columnPaths(of: $0, repeatPaths: repeatPaths) }
            ?? allPaths.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        let header = ["submitted_at"] + paths.map { $0.replacingOccurrences(of: "/", with: "-") } + trailingColumns
        let kinds = definition.map(answerKinds(of:)) ?? [:]
        var columns = AnswerColumns(paths: paths, kinds: paths.map { kinds[templatePath($0)] })
        var count = 0
        try CSVFile.write(
            to: url, replacing: replacing, header: header,
            appendRow: { (row: ResponseBytes, bytes: inout [UInt8]) in columns.append(row, to: &bytes) },
            rows: { emit in
                // NB: Swift refuses one non-escaping closure passed into
                // another unless told that it stays put.
                try withoutActuallyEscaping(emit) { emit in
                    try rows { row in
                        try emit(row)
                        count += 1
                    }
                }
            }
        )
        return count
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
        path.utf8.contains(UInt8(ascii: "[")) ? path.replacing(/\[\d+\]/, with: "") : path
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
                case _ where question.type.isDataFileDeclaration: continue
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
        case _ where type.isAttachment: self = .attachment
        default: return nil
        }
    }
}

/// One response's answers laid out in the export's columns.
private struct AnswerColumns {
    let paths: [[UInt8]]
    /// What each column's question says its answers are.
    let kinds: [FormResponse.Kind?]
    let columnOfPath: [String: Int]
    /// The column of each answer of the last row, by position: a form's
    /// responses mostly store the same answers in the same order, so that
    /// finding a column is mostly one comparison of bytes.
    var lastColumns: [Int] = []
    /// The answer written in each column (its position in the row), or -1.
    var cells: [Int]

    init(paths: [String], kinds: [FormResponse.Kind?]) {
        self.paths = paths.map { Array($0.utf8) }
        self.kinds = kinds
        columnOfPath = Dictionary(paths.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        cells = Array(repeating: -1, count: paths.count)
    }

    /// The row: submission time, a cell per column (empty where the response
    /// has no answer), instance id, form version, start time.
    mutating func append(_ row: ResponseBytes, to out: inout [UInt8]) {
        for column in cells.indices { cells[column] = -1 }
        let answers = row.answers
        row.bytes.withUnsafeBytes { bytes in
            for (position, answer) in answers.enumerated() {
                if let column = column(of: UnsafeRawBufferPointer(rebasing: bytes[answer.path]), at: position) {
                    cells[column] = position
                }
            }
            Self.append(row.submittedAt, bytes, to: &out)
            for column in cells.indices {
                out.append(0x2C)
                guard cells[column] >= 0 else { continue }
                let answer = answers[cells[column]]
                Self.appendCell(UnsafeRawBufferPointer(rebasing: bytes[answer.value]), kind: answer.kind ?? kinds[column], to: &out)
            }
            for text in [row.instanceID, row.formVersion] {
                out.append(0x2C)
                CSVFile.appendText(UnsafeRawBufferPointer(rebasing: bytes[text]), keepingLineBreaks: false, to: &out)
            }
            out.append(0x2C)
            Self.append(row.startedAt, bytes, to: &out)
        }
    }

    private mutating func column(of path: UnsafeRawBufferPointer, at position: Int) -> Int? {
        if position < lastColumns.count, lastColumns[position] >= 0, paths[lastColumns[position]].elementsEqual(path) {
            return lastColumns[position]
        }
        let column = columnOfPath[String(decoding: path, as: UTF8.self)]
        if position >= lastColumns.count { lastColumns += repeatElement(-1, count: position + 1 - lastColumns.count) }
        lastColumns[position] = column ?? -1
        return column
    }

    /// One answer as its kind is written: a number as it is (a text would
    /// get a spreadsheet's guard before `-`), an acknowledgement as a boolean.
    private static func appendCell(_ value: UnsafeRawBufferPointer, kind: FormResponse.Kind?, to out: inout [UInt8]) {
        switch kind {
        case .boolean:
            out += (value.elementsEqual("OK".utf8) ? "true" : "false").utf8
        case .number where isFiniteNumber(value):
            out.append(contentsOf: value)
        default:
            CSVFile.appendText(value, keepingLineBreaks: true, to: &out)
        }
    }

    /// Whether `Double` reads `value` as a finite number: at once for plain
    /// decimals, by `Double` itself for the rest.
    private static func isFiniteNumber(_ value: UnsafeRawBufferPointer) -> Bool {
        var digits = 0
        var point = false
        for (offset, byte) in value.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "-") where offset == 0: continue
            case UInt8(ascii: ".") where !point && digits > 0: point = true
            default: return Double(String(decoding: value, as: UTF8.self))?.isFinite == true
            }
        }
        // At most 300 digits cannot overflow a Double.
        guard digits > 0, digits <= 300, value.last != UInt8(ascii: ".") else {
            return Double(String(decoding: value, as: UTF8.self))?.isFinite == true
        }
        return true
    }

    /// A time as ISO 8601 in UTC, whole seconds: `2027-01-15T08:00:00Z`.
    private static func append(_ time: ResponseBytes.Time, _ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        switch time {
        case .date(let date):
            CSVFile.appendTimestamp(date, to: &out)
        case .stored(let range):
            // `yyyy-MM-dd HH:mm:ss`: the store's own UTC.
            let start = range.lowerBound
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<start + 10]))
            out.append(UInt8(ascii: "T"))
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start + 11..<start + 19]))
            out.append(UInt8(ascii: "Z"))
        }
    }
}

/// What an export did with the files the responses name.
public struct AttachmentExport: Sendable, Equatable {
    /// The folder the files went to, beside the CSV.
    public var folder: URL
    /// How many files were copied.
    public var copied: Int
    /// Files the responses name that were not in their folders.
    public var missing: [String]
}

extension FormCSVExporter {
    /// The folder an export to `csv` puts the responses' files in: one per
    /// export, beside it, named after it (`household.csv` → `household-media`);
    /// inside, each file keeps the name its answer holds, as ODK Central's
    /// export names them.
    public static func attachmentsFolder(besideCSV csv: URL) -> URL {
        let stem = csv.pathExtension.lowercased() == "csv" ? csv.deletingPathExtension().lastPathComponent : csv.lastPathComponent
        return csv.deletingLastPathComponent().appendingPathComponent(stem + "-media", isDirectory: true)
    }

    /// Copies the files that `formID`'s stored responses name into the
    /// folder beside `csv`; `nil` when `definition` asks for no file.
    public static func writeAttachments(
        _ definition: FormDefinition, from store: ResponseStore, besideCSV csv: URL
    ) throws -> AttachmentExport? {
        guard definition.allQuestions.contains(where: \.type.isAttachment) else { return nil }
        let attachments = AttachmentStore(directory: store.url.deletingLastPathComponent())
        let folder = attachmentsFolder(besideCSV: csv)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw StorageError(tr("Could not create the folder %@: %@", folder.path, error.localizedDescription))
        }
        var result = AttachmentExport(folder: folder, copied: 0, missing: [])
        try store.forEachResponse(toForm: definition.settings.id) { response in
            let names = response.attachmentNames
            guard !names.isEmpty else { return }
            let missing = try attachments.copy(names, instanceID: response.instanceID, to: folder)
            result.copied += names.count - missing.count
            result.missing += missing
        }
        return result
    }
}
