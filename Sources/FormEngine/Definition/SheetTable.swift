import Foundation

/// A sheet with its header understood: each column's canonical name and
/// language, and each data row's cells by column.
struct SheetTable {
    /// A column as the engine knows it: `label` in `Deutsch (de)`, say.
    struct Column: Hashable {
        var name: String
        var language: String?
        /// The header as written, for messages.
        var header: String
        /// Whether its cells are texts per language (label, hint, ...).
        var isTranslatable: Bool { SheetTable.translatable.contains(name) }
        /// Whether its cells are texts: it names a language, or it is a
        /// translatable column written without one.
        var holdsText: Bool { language != nil || isTranslatable }
    }

    /// One data row.
    struct Row {
        var number: Int
        /// Each column's cleaned cell, `""` where it is empty or blank; it
        /// ends at the last cell the sheet has for the row.
        var values: [String]
        /// Whether every cell is empty.
        var isEmpty: Bool

        /// The cell of the column at `index`, or `nil` when it is empty.
        subscript(index: Int) -> String? {
            index < values.count && !values[index].isEmpty ? values[index] : nil
        }

        /// The cell of `column`: the last non-empty one where the sheet
        /// repeats the column, as a later header overrides an earlier one.
        subscript(column: Cells) -> String? {
            var found: String?
            for index in column.indices {
                if let value = self[index] { found = value }
            }
            return found
        }

        /// Every non-empty cell by its column's index, in column order.
        var cells: [(column: Int, value: String)] {
            values.indices.compactMap { index in values[index].isEmpty ? nil : (index, values[index]) }
        }

        /// The texts of `column` by language.
        func translated(_ column: Texts) -> TranslatedText {
            var byLanguage: [String: String] = [:]
            for text in column.columns {
                if let value = self[text.index] { byLanguage[text.language] = value }
            }
            return TranslatedText(byLanguage)
        }

        /// The media columns' file names that this row gives, by kind.
        func media(_ columns: [(MediaKind, Texts)]) -> [MediaKind: TranslatedText] {
            var found: [MediaKind: TranslatedText] = [:]
            for (kind, texts) in columns {
                let names = translated(texts)
                if !names.isEmpty { found[kind] = names }
            }
            return found
        }
    }

    /// The columns that hold one untranslated column's cells, found once per
    /// sheet so that reading a row's cell costs no hashing.
    struct Cells {
        var indices: [Int]
    }

    /// The columns that hold one translatable column's texts, with each one's
    /// language (`default` for a column with none).
    struct Texts {
        var columns: [(index: Int, language: String)]
    }

    /// Where `name`'s untranslated cells are.
    func cells(_ name: String) -> Cells {
        Cells(indices: columns.indices.filter { columns[$0].name == name && !columns[$0].holdsText })
    }

    /// Where `name`'s texts are, per language.
    func texts(_ name: String) -> Texts {
        Texts(columns: columns.indices.compactMap { index in
            let column = columns[index]
            guard column.name == name, column.holdsText else { return nil }
            return (index, column.language ?? FormDefinition.defaultLanguageName)
        })
    }

    var sheetName: String
    var columns: [Column]
    var rows: [Row]
    /// Whether each column has at least one non-empty cell.
    var isColumnUsed: [Bool] = []

    /// Reads `sheet`, naming columns through `aliases` (snake-cased first token →
    /// canonical name). Cells are cleaned as pyxform cleans them: smart quotes
    /// made straight, and where `collapsesSpaces`, trimmed with runs of spaces
    /// collapsed.
    init(
        _ sheet: Sheet, name sheetName: String, layout: Workbook.Layout,
        aliases: [String: String], grouped: [String: String] = [:],
        collapsesSpaces: Bool, problems: inout [FormProblem]
    ) {
        self.sheetName = sheetName
        var headerCells = sheet.rows.first { $0.number == 1 }?.cells ?? []
        if layout == .spreadsheet {
            headerCells = Self.spreadsheetHeaders(headerCells)
        }
        let useDoubleColon = headerCells.contains { $0.contains("::") }
        var seenHeaders: Set<String> = []
        var byTokens: [Column: String] = [:]
        columns = []
        for header in headerCells {
            let header = layout == .spreadsheet ? Self.collapseSpaces(header) : header
            var column = Self.column(for: header, useDoubleColon: useDoubleColon, aliases: aliases, grouped: grouped)
            if header.isEmpty {
                columns.append(column)
                continue
            }
            if layout == .spreadsheet, seenHeaders.contains(header) {
                problems.append(FormProblem(sheet: sheetName, "Duplicate column header: \(header)"))
            }
            seenHeaders.insert(header)
            var key = column
            key.header = ""
            if let other = byTokens[key], column.name != header {
                problems.append(FormProblem(
                    sheet: sheetName,
                    "The headers '\(other)' and '\(header)' are different names for the same column. Rename or remove one of them."
                ))
            }
            byTokens[key] = header
            column.header = header
            columns.append(column)
        }

        rows = []
        rows.reserveCapacity(sheet.rows.count)
        isColumnUsed = Array(repeating: false, count: columns.count)
        let isNamed = columns.map { !$0.header.isEmpty }
        var previousNumber = 1
        for sheetRow in sheet.rows where sheetRow.number > 1 {
            // A spreadsheet's data ends after a run of more than 60 empty rows.
            if layout == .spreadsheet, sheetRow.number - previousNumber - 1 > 60 { break }
            previousNumber = sheetRow.number
            // The sheet's own array, copied only where a cell must change.
            var values = sheetRow.cells
            if values.count > columns.count { values.removeLast(values.count - columns.count) }
            var isEmpty = true
            for index in values.indices {
                let raw = values[index]
                guard !raw.isEmpty else { continue }
                guard isNamed[index] else {
                    values[index] = ""
                    continue
                }
                let value = Self.clean(raw, collapsesSpaces: collapsesSpaces)
                if Self.isBlank(value) {
                    values[index] = ""
                    continue
                }
                if value != raw { values[index] = value }
                isEmpty = false
                isColumnUsed[index] = true
            }
            rows.append(Row(number: sheetRow.number, values: values, isEmpty: isEmpty))
        }
    }

    /// Whether `text` is empty or white space only; the ASCII case needs no
    /// Unicode property look-up.
    private static func isBlank(_ text: String) -> Bool {
        for byte in text.utf8 {
            if byte >= 0x80 { return text.allSatisfy(\.isWhitespace) }
            if byte != 0x20, !(0x09...0x0D).contains(byte) { return false }
        }
        return true
    }

    static let translatable = XLSFormAliases.translatableColumns

    /// A spreadsheet's header ends at a run of more than 20 empty cells.
    private static func spreadsheetHeaders(_ cells: [String]) -> [String] {
        var result: [String] = []
        var emptyRun = 0
        for cell in cells {
            if cell.allSatisfy(\.isWhitespace) {
                if emptyRun == 20 { break }
                emptyRun += 1
                result.append("")
            } else {
                emptyRun = 0
                result.append(cell)
            }
        }
        return result
    }

    /// The column a header names: its first token snake-cased and de-aliased,
    /// and the rest (after `::`, or `:` in older forms) its language.
    static func column(
        for header: String, useDoubleColon: Bool, aliases: [String: String], grouped: [String: String]
    ) -> Column {
        let header = header.trimmingCharacters(in: .whitespaces)
        if let known = aliases[header], header == known || !header.contains(":") {
            return Column(name: known, language: nil, header: header)
        }
        var tokens: [String]
        if useDoubleColon || header.contains("::") {
            tokens = header.components(separatedBy: "::").map { $0.trimmingCharacters(in: .whitespaces) }
        } else {
            tokens = header.components(separatedBy: ":").map { $0.trimmingCharacters(in: .whitespaces) }
            if let jr = tokens.firstIndex(of: "jr"), jr + 1 < tokens.count {
                tokens.replaceSubrange(jr...(jr + 1), with: ["jr:" + tokens[jr + 1]])
            }
        }
        let first = snakeCase(tokens[0])
        if ["bind", "control", "body"].contains(first), tokens.count >= 2,
           let name = grouped["\(first)::\(tokens[1])"] {
            return Column(name: name, language: language(tokens.dropFirst(2)), header: header)
        }
        if first == "media", tokens.count >= 2 {
            let name = "media::" + tokens[1]
            return Column(name: name, language: language(tokens.dropFirst(2)), header: header)
        }
        if let name = aliases[first] {
            return Column(name: name, language: language(tokens.dropFirst()), header: header)
        }
        return Column(name: header, language: nil, header: header)
    }

    private static func language(_ tokens: ArraySlice<String>) -> String? {
        let joined = tokens.joined(separator: "::")
        return joined.isEmpty ? nil : joined
    }

    /// `List Name` → `list_name`: words joined by `_`, lower case.
    static func snakeCase(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: "_").lowercased()
    }

    /// Whether cleaning would leave `text` as it is: no white space at either
    /// end, no two spaces in a row, and no byte that could start a curly quote
    /// (U+2018–U+201D are E2 80 98–9D in UTF-8). One pass over the bytes.
    private static func isClean(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.first, let last = bytes.last else { return true }
            guard first > 0x20, first < 0x80, last > 0x20, last < 0x80 else { return false }
            var previous: UInt8 = 0
            for byte in bytes {
                if byte == 0xE2 || (byte == 0x20 && previous == 0x20) { return false }
                previous = byte
            }
            return true
        }
    }

    static func collapseSpaces(_ text: String) -> String {
        guard text.includes("  ") else { return text }
        var result = ""
        var previousWasSpace = false
        for character in text {
            if character == " " {
                if !previousWasSpace { result.append(" ") }
                previousWasSpace = true
            } else {
                result.append(character)
                previousWasSpace = false
            }
        }
        return result
    }

    static func clean(_ raw: String, collapsesSpaces: Bool) -> String {
        if isClean(raw) { return raw }
        var value = raw
        if collapsesSpaces {
            value = collapseSpaces(value.trimmed)
        }
        if value.unicodeScalars.contains(where: { (0x2018...0x201D).contains($0.value) }) {
            value = value.replacingScalar("\u{2018}", with: "'").replacingScalar("\u{2019}", with: "'")
                .replacingScalar("\u{201C}", with: "\"").replacingScalar("\u{201D}", with: "\"")
        }
        return value
    }
}
