import Foundation
import ZIPFoundation

/// Reads an Office Open XML workbook (`.xlsx`) into text cells.
///
/// Only what a form needs: sheet names and order, shared and inline strings,
/// and each cell's shown text. Sheets are found through the workbook's
/// relationships, since `sheet1.xml` need not be the first sheet.
enum XLSXReader {
    static func read(_ data: Data, fileName: String) throws(FormFileError) -> Workbook {
        let archive: Archive
        do {
            archive = try Archive(data: data, accessMode: .read)
        } catch {
            throw .notAWorkbook(fileName, reason: "it is not a zip archive")
        }
        func entry(_ path: String) throws(FormFileError) -> Data? {
            guard let entry = archive[path] else { return nil }
            var contents = Data()
            do {
                _ = try archive.extract(entry, skipCRC32: true) { contents.append($0) }
            } catch {
                throw .notAWorkbook(fileName, reason: "\(path) is damaged")
            }
            return contents
        }

        guard let workbookXML = try entry("xl/workbook.xml") else {
            throw .notAWorkbook(fileName, reason: "it has no xl/workbook.xml")
        }
        func wellFormed<T>(_ value: T?, _ path: String) throws(FormFileError) -> T {
            guard let value else { throw .notAWorkbook(fileName, reason: "\(path) is not well-formed XML") }
            return value
        }
        let sheetList = try wellFormed(SheetListParser.parse(workbookXML), "xl/workbook.xml")
        var targets: [String: String] = [:]
        if let rels = try entry("xl/_rels/workbook.xml.rels") {
            targets = try wellFormed(RelationshipParser.parse(rels), "xl/_rels/workbook.xml.rels")
        }
        var sharedStrings: [String] = []
        if let strings = try entry("xl/sharedStrings.xml") {
            sharedStrings = try wellFormed(SharedStringsParser.parse(strings), "xl/sharedStrings.xml")
        }

        var sheets: [Sheet] = []
        for (index, listed) in sheetList.enumerated() {
            let path = targets[listed.relationship].map(Self.partPath) ?? "xl/worksheets/sheet\(index + 1).xml"
            guard let sheetXML = try entry(path) else {
                throw .notAWorkbook(fileName, reason: "sheet \"\(listed.name)\" is missing (\(path))")
            }
            let rows = try wellFormed(SheetParser.parse(sheetXML, sharedStrings: sharedStrings), path)
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

/// `xl/workbook.xml`: the sheets' names and relationship ids, in order.
private enum SheetListParser {
    static func parse(_ data: Data) -> [(name: String, relationship: String)]? {
        XMLScanner.scan(data) { scanner in
            var sheets: [(name: String, relationship: String)] = []
            while let event = try scanner.next() {
                guard case .start(let name, let attributes, _) = event, scanner.name(name, is: "sheet"),
                      let sheetName = scanner.attributeValue("name", in: attributes)
                else { continue }
                // The relationship id is the namespaced `r:id`, not a plain `id`.
                let relationship = scanner.attributeValue("id", in: attributes, prefixed: true)
                sheets.append((scanner.text(sheetName), relationship.map { scanner.text($0) } ?? ""))
            }
            return sheets
        }
    }
}

/// `xl/_rels/workbook.xml.rels`: relationship id → target path.
private enum RelationshipParser {
    static func parse(_ data: Data) -> [String: String]? {
        XMLScanner.scan(data) { scanner in
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

/// `xl/sharedStrings.xml`: the table string cells point into. Rich text is
/// the join of its runs; phonetic guides (`rPh`) are not shown text.
private enum SharedStringsParser {
    static func parse(_ data: Data) -> [String]? {
        XMLScanner.scan(data) { scanner in
            var strings: [String] = []
            var current = ""
            var inText = false
            var phoneticDepth = 0
            while let event = try scanner.next() {
                switch event {
                case .start(let name, _, let isEmpty):
                    if scanner.name(name, is: "si") {
                        current = ""
                        if isEmpty { strings.append("") }
                    } else if scanner.name(name, is: "t") {
                        inText = phoneticDepth == 0 && !isEmpty
                    } else if scanner.name(name, is: "rPh"), !isEmpty {
                        phoneticDepth += 1
                    }
                case .end(let name):
                    if scanner.name(name, is: "si") {
                        strings.append(current)
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

    static func parse(_ data: Data, sharedStrings: [String]) -> [SheetRow]? {
        // Each shared string is cleaned once, however many cells show it.
        let shownShared = sharedStrings.map(XLSXReader.shownString)
        return XMLScanner.scan(data) { scanner in
            var rows: [SheetRow] = []
            var rowNumber = 0
            var cells: [String] = []
            var width = 0
            var column = -1
            var cellType = CellType.number
            var value = ""
            // A shared string's index, read from the digits as they come:
            // `nil` before the first digit, and for good once anything else
            // appears.
            var sharedIndex: Int?
            var sharedIndexIsValid = true
            var inlineText = ""
            var collecting = Collecting.nothing
            var phoneticDepth = 0

            func endCell() {
                let text: String
                switch cellType {
                case .sharedString:
                    guard sharedIndexIsValid, let index = sharedIndex, shownShared.indices.contains(index) else { return }
                    text = shownShared[index]
                case .inlineString: text = XLSXReader.shownString(inlineText)
                case .formulaString: text = XLSXReader.shownString(value)
                case .boolean: text = value == "1" ? "TRUE" : value == "0" ? "FALSE" : value
                case .verbatim: text = value
                case .number: text = value.isEmpty ? "" : XLSXReader.shownNumber(value)
                }
                guard column >= 0, !text.isEmpty else { return }
                if cells.count <= column { cells.append(contentsOf: repeatElement("", count: column + 1 - cells.count)) }
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
                        column = scanner.columnIndex(in: attributes) ?? column + 1
                        cellType = CellType(scanner, attributes: attributes)
                        value = ""
                        sharedIndex = nil
                        sharedIndexIsValid = true
                        inlineText = ""
                    } else if scanner.bytes(name, are: "v") {
                        collecting = isEmpty ? .nothing : .value
                    } else if scanner.bytes(name, are: "row") {
                        rowNumber = scanner.attributeValue("r", in: attributes).flatMap { scanner.integer($0) } ?? rowNumber + 1
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
                        endCell()
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
