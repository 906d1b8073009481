import Foundation

/// Reads an Office Open XML workbook (`.xlsx`) into text cells.
///
/// Only what a form needs: sheet names and order, shared and inline strings,
/// and each cell's shown text (a date as the date, from its style). Sheets are found through the workbook's
/// relationships, since `sheet1.xml` need not be the first sheet. Only the
/// sheets a form reads are parsed, each part once, within `FormLimits`.
enum XLSXReader {
    static func read(_ data: Data, fileName: String) throws(FormFileError) -> Workbook {
        func failure(_ failure: ZipArchive.Failure) -> FormFileError {
            switch failure {
            case .damaged(let reason): .notAWorkbook(fileName, reason: reason)
            case .tooLarge(let reason): .refused(fileName, reason: reason)
            }
        }
        var archive: ZipArchive
        do {
            archive = try ZipArchive(data)
        } catch {
            throw failure(error)
        }
        func entry(_ path: String) throws(FormFileError) -> Data? {
            do {
                return try archive.contents(of: path)
            } catch {
                throw failure(error)
            }
        }
        func parsed<T>(_ path: String, _ parse: (Data) throws(LimitExceeded) -> T?, from data: Data) throws(FormFileError) -> T {
            let value: T?
            do {
                value = try parse(data)
            } catch {
                throw .refused(fileName, reason: error.reason)
            }
            guard let value else { throw .notAWorkbook(fileName, reason: "\(path) is not well-formed XML") }
            return value
        }

        guard let workbookXML = try entry("xl/workbook.xml") else {
            throw .notAWorkbook(fileName, reason: "it has no xl/workbook.xml")
        }
        let (sheetList, counts1904) = try parsed("xl/workbook.xml", SheetListParser.parse, from: workbookXML)
        guard sheetList.count <= FormLimits.sheets else {
            throw .refused(fileName, reason: "it has \(sheetList.count) sheets; a form reads three, and at most \(FormLimits.sheets) are listed")
        }
        // A form reads XLSForm's own sheets, or a workbook's only sheet; the
        // author's other sheets are listed but not parsed.
        let read = sheetList.map { sheetList.count == 1 || Workbook.formSheetNames.contains($0.name.lowercased()) }
        guard read.contains(true) else {
            return Workbook(sheets: sheetList.map { Sheet(name: $0.name, rows: []) })
        }

        var targets: [String: String] = [:]
        if let rels = try entry("xl/_rels/workbook.xml.rels") {
            targets = try parsed("xl/_rels/workbook.xml.rels", RelationshipParser.parse, from: rels)
        }
        var sharedStrings: [String] = []
        if let strings = try entry("xl/sharedStrings.xml") {
            sharedStrings = try parsed("xl/sharedStrings.xml", SharedStringsParser.parse, from: strings)
        }
        var dates = XLSXDates(counts1904: counts1904)
        if let styles = try entry("xl/styles.xml") {
            dates.styles = try parsed("xl/styles.xml", StylesParser.parse, from: styles)
        }

        var sheets: [Sheet] = []
        sheets.reserveCapacity(sheetList.count)
        var rowsByPart: [String: [SheetRow]] = [:]
        var cells = CellBudget()
        for (index, listed) in sheetList.enumerated() {
            guard read[index] else {
                sheets.append(Sheet(name: listed.name, rows: []))
                continue
            }
            let path = targets[listed.relationship].map(Self.partPath) ?? "xl/worksheets/sheet\(index + 1).xml"
            if let rows = rowsByPart[path] {
                sheets.append(Sheet(name: listed.name, rows: rows))
                continue
            }
            guard let sheetXML = try entry(path) else {
                throw .notAWorkbook(fileName, reason: "sheet \"\(listed.name)\" is missing (\(path))")
            }
            let rows = try parsed(path, { data throws(LimitExceeded) in
                try SheetParser.parse(data, sheet: listed.name, sharedStrings: sharedStrings, dates: dates, cells: &cells)
            }, from: sheetXML)
            rowsByPart[path] = rows
            sheets.append(Sheet(name: listed.name, rows: rows))
        }
        return Workbook(sheets: sheets)
    }

    /// A relationship's target as a path inside the archive: relative to
    /// `xl/`, or absolute from the archive's root.
    private static func partPath(_ target: String) -> String {
        if target.hasPrefix("/") { return String(target.dropFirst()) }
        var parts = ["xl"]
        for part in target.split(separator: "/") {
            if part == ".." { _ = parts.popLast() } else if part != "." { parts.append(String(part)) }
        }
        return parts.joined(separator: "/")
    }

    /// The text a number cell shows in a form: whole numbers without a
    /// fraction ("2024091201", not "2024091201.0"), others in their shortest
    /// exact form.
    static func shownNumber(_ raw: String) -> String {
        if let whole = Int64(raw) { return String(whole) }
        guard let value = Double(raw), value.isFinite else { return raw }
        if value == value.rounded() { return String(format: "%.0f", value) }
        return String(value)
    }

    /// A text cell as forms read it: no space at either end, and no-break
    /// spaces as plain ones.
    static func shownString(_ text: String) -> String {
        text.replacingScalar("\u{A0}", with: " ").trimmed
    }
}

// MARK: - Parts of the workbook

/// `xl/workbook.xml`: the sheets' names and relationship ids, in order, and
/// whether dates count from 1904.
private enum SheetListParser {
    static func parse(_ data: Data) throws(LimitExceeded) -> (sheets: [(name: String, relationship: String)], counts1904: Bool)? {
        try XMLScanner.scan(data) { scanner in
            var sheets: [(name: String, relationship: String)] = []
            var counts1904 = false
            while let event = try scanner.next() {
                guard case .start(let name, let attributes, _) = event else { continue }
                if scanner.name(name, is: "workbookPr"), let value = scanner.attributeValue("date1904", in: attributes) {
                    counts1904 = scanner.bytes(value, are: "1") || scanner.bytes(value, are: "true")
                }
                guard scanner.name(name, is: "sheet"), let sheetName = scanner.attributeValue("name", in: attributes)
                else { continue }
                // The relationship id is the namespaced `r:id`, not a plain `id`.
                let relationship = scanner.attributeValue("id", in: attributes, prefixed: true)
                sheets.append((scanner.text(sheetName), relationship.map { scanner.text($0) } ?? ""))
            }
            return (sheets, counts1904)
        }
    }
}

/// `xl/_rels/workbook.xml.rels`: relationship id → target path.
private enum RelationshipParser {
    static func parse(_ data: Data) throws(LimitExceeded) -> [String: String]? {
        try XMLScanner.scan(data) { scanner in
            var targets: [String: String] = [:]
            while let event = try scanner.next() {
                guard case .start(let name, let attributes, _) = event, scanner.name(name, is: "Relationship"),
                      let id = scanner.attributeValue("Id", in: attributes),
                      let target = scanner.attributeValue("Target", in: attributes)
                else { continue }
                targets[scanner.text(id)] = scanner.text(target)
            }
            return targets
        }
    }
}

/// `xl/styles.xml`: which cell styles (`cellXfs`) show a number as a date
/// or a duration, from their number formats, the workbook's own
/// (`numFmts`) or Excel's built-in ones.
private enum StylesParser {
    static func parse(_ data: Data) throws(LimitExceeded) -> [XLSXDates.Kind]? {
        try XMLScanner.scan(data) { scanner in
            var formats: [Int: String] = [:]
            var styles: [XLSXDates.Kind] = []
            var inCellStyles = false
            while let event = try scanner.next() {
                switch event {
                case .start(let name, let attributes, let isEmpty):
                    if scanner.name(name, is: "numFmt"), let id = scanner.attributeValue("numFmtId", in: attributes),
                       let number = scanner.integer(id), let code = scanner.attributeValue("formatCode", in: attributes) {
                        guard formats.count < FormLimits.cellStyles else {
                            throw LimitExceeded("its styles have more than \(FormLimits.cellStyles) number formats")
                        }
                        formats[number] = scanner.text(code)
                    } else if scanner.name(name, is: "cellXfs") {
                        inCellStyles = !isEmpty
                    } else if inCellStyles, scanner.name(name, is: "xf") {
                        guard styles.count < FormLimits.cellStyles else {
                            throw LimitExceeded("its styles have more than \(FormLimits.cellStyles) cell formats")
                        }
                        let id = scanner.attributeValue("numFmtId", in: attributes).flatMap { scanner.integer($0) } ?? 0
                        let code = formats[id] ?? XLSXDates.builtInFormat(id)
                        styles.append(code.map(XLSXDates.kind(ofFormat:)) ?? .number)
                    }
                case .end(let name):
                    if scanner.name(name, is: "cellXfs") { inCellStyles = false }
                case .text:
                    break
                }
            }
            return styles
        }
    }
}

/// `xl/sharedStrings.xml`: the table string cells point into, each as a
/// cell shows it. Rich text is the join of its runs; phonetic guides (`rPh`)
/// are not shown text.
private enum SharedStringsParser {
    static func parse(_ data: Data) throws(LimitExceeded) -> [String]? {
        try XMLScanner.scan(data) { scanner in
            var strings: [String] = []
            func add(_ string: String) throws(LimitExceeded) {
                guard strings.count < FormLimits.sharedStrings else {
                    throw LimitExceeded("its shared string table has more than \(FormLimits.sharedStrings) entries")
                }
                strings.append(XLSXReader.shownString(string))
            }
            var current = ""
            var inText = false
            var phoneticDepth = 0
            while let event = try scanner.next() {
                switch event {
                case .start(let name, _, let isEmpty):
                    if scanner.name(name, is: "si") {
                        current = ""
                        if isEmpty { try add("") }
                    } else if scanner.name(name, is: "t") {
                        inText = phoneticDepth == 0 && !isEmpty
                    } else if scanner.name(name, is: "rPh"), !isEmpty {
                        phoneticDepth += 1
                    }
                case .end(let name):
                    if scanner.name(name, is: "si") {
                        try add(current)
                    } else if scanner.name(name, is: "t") {
                        inText = false
                    } else if scanner.name(name, is: "rPh") {
                        phoneticDepth -= 1
                    }
                case .text(let range, let isCDATA):
                    if inText { current += scanner.text(range, isCDATA: isCDATA) }
                }
            }
            return strings
        }
    }
}

/// One worksheet: rows of cells' shown text, placed by their references.
private enum SheetParser {
    private enum Collecting { case nothing, value, inlineText }

    /// A cell's `t` attribute: how its `<v>` is to be read.
    private enum CellType {
        case number, sharedString, inlineString, formulaString, boolean, verbatim

        init(_ scanner: XMLScanner, attributes: Range<Int>) {
            guard let range = scanner.attributeValue("t", in: attributes) else { self = .number; return }
            if scanner.bytes(range, are: "s") {
                self = .sharedString
            } else if scanner.bytes(range, are: "inlineStr") {
                self = .inlineString
            } else if scanner.bytes(range, are: "str") {
                self = .formulaString
            } else if scanner.bytes(range, are: "b") {
                self = .boolean
            } else if scanner.bytes(range, are: "e") || scanner.bytes(range, are: "d") {
                self = .verbatim
            } else {
                self = .number
            }
        }
    }

    static func parse(
        _ data: Data, sheet: String, sharedStrings: [String], dates: XLSXDates, cells budget: inout CellBudget
    ) throws(LimitExceeded) -> [SheetRow]? {
        try XMLScanner.scan(data) { scanner in
            var rows: [SheetRow] = []
            var rowNumber = 0
            var cells: [String] = []
            var width = 0
            var column = -1
            var cellType = CellType.number
            var style = XLSXDates.Kind.number
            var value = ""
            // A shared string's index, read from the digits as they come:
            // `nil` before the first digit, and for good once anything else
            // appears.
            var sharedIndex: Int?
            var sharedIndexIsValid = true
            var inlineText = ""
            var collecting = Collecting.nothing
            var phoneticDepth = 0

            func place(_ reason: String) -> LimitExceeded {
                LimitExceeded("sheet '\(sheet)' row \(rowNumber): \(reason)")
            }
            func endCell() throws(LimitExceeded) {
                let text: String
                switch cellType {
                case .sharedString:
                    guard sharedIndexIsValid, let index = sharedIndex, sharedStrings.indices.contains(index) else { return }
                    text = sharedStrings[index]
                case .inlineString: text = XLSXReader.shownString(inlineText)
                case .formulaString: text = XLSXReader.shownString(value)
                case .boolean: text = value == "1" ? "TRUE" : value == "0" ? "FALSE" : value
                case .verbatim: text = value
                case .number where value.isEmpty: text = ""
                case .number: text = style == .number ? XLSXReader.shownNumber(value) : dates.shown(value, kind: style)
                }
                guard column >= 0, !text.isEmpty else { return }
                if cells.count <= column {
                    let added = column + 1 - cells.count
                    guard budget.take(added) else {
                        throw place("the sheets hold more than \(FormLimits.cells) cells, counting the empty ones before each row's last")
                    }
                    cells.append(contentsOf: repeatElement("", count: added))
                }
                cells[column] = text
            }
            func endRow() {
                if cells.contains(where: { !$0.isEmpty }) { rows.append(SheetRow(number: rowNumber, cells: cells)) }
                width = max(width, cells.count)
            }

            while let event = try scanner.next() {
                switch event {
                case .start(let qualified, let attributes, let isEmpty):
                    // Each name is compared with several: find its local part once.
                    let name = scanner.localName(qualified)
                    if scanner.bytes(name, are: "c") {
                        switch scanner.cellColumn(in: attributes) {
                        case .index(let index): column = index
                        case .unnamed: column += 1
                        case .beyondLastColumn: throw place("a cell lies beyond the last column a spreadsheet has (XFD)")
                        }
                        guard column < FormLimits.columns else {
                            throw place("a cell lies beyond the last column a spreadsheet has (XFD)")
                        }
                        cellType = CellType(scanner, attributes: attributes)
                        style = scanner.attributeValue("s", in: attributes).flatMap { scanner.integer($0) }
                            .map(dates.kind(ofStyle:)) ?? .number
                        value = ""
                        sharedIndex = nil
                        sharedIndexIsValid = true
                        inlineText = ""
                    } else if scanner.bytes(name, are: "v") {
                        collecting = isEmpty ? .nothing : .value
                    } else if scanner.bytes(name, are: "row") {
                        if let number = scanner.attributeValue("r", in: attributes), let read = scanner.integer(number) {
                            rowNumber = read
                        } else if let number = scanner.attributeValue("r", in: attributes), scanner.isDigits(number) {
                            rowNumber = Int.max  // too many digits for an Int: past the last row all the same
                        } else {
                            rowNumber += 1
                        }
                        guard rowNumber <= FormLimits.rows else {
                            throw LimitExceeded("sheet '\(sheet)': a row is numbered beyond the last row a spreadsheet has (\(FormLimits.rows))")
                        }
                        cells = []
                        cells.reserveCapacity(width)
                        column = -1
                        if isEmpty { endRow() }
                    } else if scanner.bytes(name, are: "t"), phoneticDepth == 0 {
                        collecting = isEmpty ? .nothing : .inlineText
                    } else if scanner.bytes(name, are: "rPh"), !isEmpty {
                        phoneticDepth += 1
                    }
                case .end(let qualified):
                    let name = scanner.localName(qualified)
                    if scanner.bytes(name, are: "c") {
                        try endCell()
                    } else if scanner.bytes(name, are: "v") || scanner.bytes(name, are: "t") {
                        collecting = .nothing
                    } else if scanner.bytes(name, are: "row") {
                        endRow()
                    } else if scanner.bytes(name, are: "rPh") {
                        phoneticDepth -= 1
                    }
                case .text(let range, let isCDATA):
                    switch collecting {
                    case .nothing: break
                    case .value where cellType == .sharedString:
                        sharedIndex = scanner.integer(range, continuing: sharedIndex ?? 0)
                        if sharedIndex == nil { sharedIndexIsValid = false }
                    case .value: value += scanner.text(range, isCDATA: isCDATA)
                    case .inlineText: inlineText += scanner.text(range, isCDATA: isCDATA)
                    }
                }
            }
            return rows
        }
    }
}
