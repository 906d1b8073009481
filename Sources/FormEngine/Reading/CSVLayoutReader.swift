/// Reads pyxform's one-file CSV layout: a row whose first cell names a sheet
/// starts that sheet; the rows after it, each with an empty first cell, are
/// the sheet's header and then its data.
import Foundation

enum CSVLayoutReader {
    static func read(_ text: String) throws(LimitExceeded) -> Workbook {
        try SheetLayout.workbook(from: records(text), layout: .csv)
    }

    /// The records of a CSV text (RFC 4180: quoted fields may hold commas,
    /// line breaks and doubled quotes).
    /// `strict`: a quoted field still open at the end is refused rather than
    /// read to the end, for data files where that loses every later row.
    static func records(_ text: String, strict: Bool = false) throws(LimitExceeded) -> [[String]] {
        var records: [[String]] = []
        var cells = CellBudget()
        var record: [String] = []
        var field = ""
        var inQuotes = false
        var fieldWasQuoted = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = scalars.next()
        if pending == "\u{FEFF}" { pending = scalars.next() }

        func endField() throws(LimitExceeded) {
            guard cells.take(1) else { throw SheetLayout.tooManyCells(row: records.count + 1) }
            guard record.count < FormLimits.columns else { throw SheetLayout.tooManyColumns(row: records.count + 1) }
            record.append(field)
            field = ""
            fieldWasQuoted = false
        }
        func endRecord() throws(LimitExceeded) {
            try endField()
            records.append(record)
            record = []
        }

        while let scalar = pending {
            pending = scalars.next()
            if inQuotes {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = scalars.next()
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty && !fieldWasQuoted:
                inQuotes = true
                fieldWasQuoted = true
            case ",":
                try endField()
            case "\r":
                if pending == "\n" { pending = scalars.next() }
                try endRecord()
            case "\n":
                try endRecord()
            default:
                field.unicodeScalars.append(scalar)
            }
        }
        if strict, inQuotes {
            throw LimitExceeded("line \(records.count + 1): a value opens a quote that is never closed")
        }
        if !field.isEmpty || !record.isEmpty || fieldWasQuoted { try endRecord() }
        return records
    }
}

/// Reads pyxform's Markdown layout: the same shape as the CSV layout, written
/// as table rows (`| survey |`, `| | type | name |`, ...). Lines that are not
/// table rows, separator rows (`|---|---|`) and `#` comments are ignored.
enum MarkdownLayoutReader {
    static func read(_ text: String) throws(LimitExceeded) -> Workbook {
        var records: [[String]] = []
        var cellCount = CellBudget()
        // "\r\n" is one Character in Swift: a file saved on Windows splits on it too.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            var line = Substring(rawLine)
            if line.drop(while: \.isWhitespace).hasPrefix("#") { continue }
            // A comment after the last bar is not part of the row.
            if let hash = line.lastIndex(of: "#"), !line[hash...].contains("|") {
                line = line[..<hash]
            }
            let leading = line.drop(while: \.isWhitespace)
            guard leading.hasPrefix("|"), let lastBar = leading.lastIndex(of: "|"),
                  lastBar > leading.startIndex else { continue }
            let inner = leading[leading.index(after: leading.startIndex)..<lastBar]
            if !inner.isEmpty, inner.allSatisfy({ $0 == "|" || $0 == "-" }) { continue }
            let row = cells(of: inner)
            guard cellCount.take(row.count) else { throw SheetLayout.tooManyCells(row: records.count + 1) }
            guard row.count <= FormLimits.columns else { throw SheetLayout.tooManyColumns(row: records.count + 1) }
            records.append(row)
        }
        return try SheetLayout.workbook(from: records, layout: .markdown)
    }

    /// The cells between a row's bars; `\|` is a bar inside a cell.
    private static func cells(of inner: Substring) -> [String] {
        var cells: [String] = []
        var cell = ""
        var previous: Character?
        for character in inner {
            if character == "|", previous != "\\" {
                cells.append(cell)
                cell = ""
            } else {
                cell.append(character)
            }
            previous = character
        }
        cells.append(cell)
        return cells.map { $0.trimmed.replacingOccurrences(of: "\\|", with: "|") }
    }
}

/// The shape the CSV and Markdown layouts share: records whose first cell
/// names a sheet, or is empty for the sheet's header and data rows.
enum SheetLayout {
    /// Rows with no content are left out, so a row's number counts only the
    /// sheet's rows that have some (the header is 1), as pyxform counts them.
    /// A sheet named again replaces the earlier one.
    static func workbook(from records: [[String]], layout: Workbook.Layout) throws(LimitExceeded) -> Workbook {
        var sheets: [Sheet] = []
        var sheetIndices: [String: Int] = [:]
        var current: Int?
        for record in records {
            guard let first = record.first else { continue }
            let name = first.trimmed
            if !name.isEmpty {
                if let existing = sheetIndices[name] {
                    sheets[existing].rows = []
                    current = existing
                } else {
                    guard sheets.count < FormLimits.sheets else {
                        throw LimitExceeded("it names more than \(FormLimits.sheets) sheets; a form reads three")
                    }
                    sheets.append(Sheet(name: name, rows: []))
                    current = sheets.count - 1
                    sheetIndices[name] = current
                }
            }
            let cells = record.dropFirst().map(\.trimmed)
            guard let current, cells.contains(where: { !$0.isEmpty }) else { continue }
            sheets[current].rows.append(SheetRow(number: sheets[current].rows.count + 1, cells: cells))
        }
        return Workbook(sheets: sheets, layout: layout)
    }

    static func tooManyColumns(row: Int) -> LimitExceeded {
        LimitExceeded("line \(row): more than \(FormLimits.columns) cells, the most a spreadsheet row has")
    }

    static func tooManyCells(row: Int) -> LimitExceeded {
        LimitExceeded("line \(row): the file holds more than \(FormLimits.cells) cells")
    }
}
