import Foundation

/// Reads a legacy Excel workbook (`.xls`: BIFF8 in a compound file, or the
/// BIFF5 of Excel 5.0/95, whose text is in the workbook's code page) into
/// text cells, as pyxform reads one through xlrd: text stripped and its
/// no-break spaces made plain, whole numbers without a fraction, booleans
/// as `TRUE`/`FALSE`, a number styled as a date printed as Python prints
/// the date xlrd makes of it (`2024-04-02 00:00:00`, a time alone as
/// `12:30:00`), and a formula as its cached result.
///
/// Nothing is trusted: records are read within their stated lengths and the
/// stream's end, shared strings within `FormLimits.sharedStrings`, cells
/// within `FormLimits.cells`.
enum XLSReader {
    static func read(_ data: Data, fileName: String) throws(FormFileError) -> Workbook {
        let stream: [UInt8]?
        do throws(CompoundFile.Failure) {
            let file = try CompoundFile(data)
            // Excel 97 and later name it Workbook; Excel 5.0/95, Book.
            if let workbook = try file.stream(named: ["Workbook"]) {
                stream = workbook
            } else {
                stream = try file.stream(named: ["Book"])
            }
        } catch {
            switch error {
            case .damaged(let reason): throw .notAWorkbook(fileName, reason: reason)
            case .tooLarge(let reason): throw .refused(fileName, reason: reason)
            }
        }
        guard let stream else { throw .notAWorkbook(fileName, reason: "it holds no workbook stream") }
        do throws(BIFF.Problem) {
            return try BIFF(stream).workbook()
        } catch {
            switch error {
            case .damaged(let reason): throw .notAWorkbook(fileName, reason: reason)
            case .refused(let reason): throw .refused(fileName, reason: reason)
            }
        }
    }
}

/// The records of a BIFF8 (or BIFF5) workbook stream.
private struct BIFF {
    enum Problem: Error {
        case damaged(String)
        case refused(String)
    }

    private let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    private struct Record {
        var type: Int
        var offset: Int
        var body: ArraySlice<UInt8>
    }

    /// The record at `offset`, or nil at the stream's end.
    private func record(at offset: Int) throws(Problem) -> Record? {
        guard offset + 4 <= bytes.count else { return nil }
        let type = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
        let length = Int(bytes[offset + 2]) | Int(bytes[offset + 3]) << 8
        guard offset + 4 + length <= bytes.count else { throw .damaged("a record runs past the workbook's end (the file may be cut short)") }
        return Record(type: type, offset: offset, body: bytes[(offset + 4)..<(offset + 4 + length)])
    }

    private static let bof = 0x0809, eof = 0x000A, continued = 0x003C

    func workbook() throws(Problem) -> Workbook {
        guard let first = try record(at: 0), first.type == Self.bof, first.body.count >= 4 else {
            throw .damaged("its workbook stream does not begin as a BIFF workbook does")
        }
        var text = TextForm(legacy: false)
        switch Self.u16(first.body, 0) {
        case 0x0600: break
        case 0x0500: text.legacy = true
        default: throw .refused("it is an Excel workbook older than Excel 5.0; save it as .xlsx")
        }
        var sheetList: [(name: String, offset: Int)] = []
        var sharedStrings: [String] = []
        var formats: [Int: String] = [:]
        var styleFormats: [Int] = []
        var counts1904 = false
        var offset = 0
        while let record = try record(at: offset) {
            offset += 4 + record.body.count
            switch record.type {
            case Self.eof:
                offset = bytes.count
            case 0x002F:
                throw .refused("it is protected by a password; save it without one")
            case 0x0085:  // BoundSheet8: where a sheet's records begin, its kind and name
                guard record.body.count >= 8 else { throw .damaged("a sheet's entry is cut short") }
                guard record.body[record.body.startIndex + 5] == 0 else { continue }  // a chart or macro sheet
                var reader = Segments([record.body.dropFirst(6)])
                let name = try text.string(&reader, countBytes: 1)
                sheetList.append((name, Int(Self.u32(record.body, 0))))
                guard sheetList.count <= FormLimits.sheets else {
                    throw .refused("it has more than \(FormLimits.sheets) sheets; a form reads three")
                }
            case 0x0042 where record.body.count >= 2:  // CodePage: what Excel 5.0/95's bytes of text mean
                text.codePage = Self.u16(record.body, 0)
            case 0x0022:
                counts1904 = record.body.count >= 2 && Self.u16(record.body, 0) == 1
            case 0x041E:  // Format: a number format's code, by its number
                guard record.body.count >= 3 else { continue }
                var reader = Segments([record.body.dropFirst(2)])
                formats[Self.u16(record.body, 0)] = try text.string(&reader, countBytes: text.legacy ? 1 : 2)
            case 0x00E0:  // XF: a cell style, by its position; its number format
                guard record.body.count >= 4 else { continue }
                styleFormats.append(Self.u16(record.body, 2))
                guard styleFormats.count <= FormLimits.cellStyles else {
                    throw .refused("it has more than \(FormLimits.cellStyles) cell styles")
                }
            case 0x00FC:  // SST, with the CONTINUE records after it
                var parts = [record.body]
                while let next = try self.record(at: offset), next.type == Self.continued {
                    parts.append(next.body)
                    offset += 4 + next.body.count
                }
                sharedStrings = try Self.sharedStrings(Segments(parts))
            default:
                continue
            }
        }

        let dates = styleFormats.map { format -> Bool in
            if let code = formats[format] { return XLSXDates.kind(ofFormat: code) != .number }
            return Self.builtInDateFormats.contains(format)
        }
        // As pyxform: XLSForm's own sheets, or a workbook's only sheet.
        var cells = CellBudget()
        var sheets: [Sheet] = []
        // A sheet listed many times at one place is read once.
        var rowsByOffset: [Int: [SheetRow]] = [:]
        for listed in sheetList {
            guard sheetList.count == 1 || Workbook.formSheetNames.contains(listed.name.lowercased()) else {
                sheets.append(Sheet(name: listed.name, rows: []))
                continue
            }
            let rows: [SheetRow]
            if let read = rowsByOffset[listed.offset] {
                rows = read
            } else {
                rows = try self.rows(of: listed.name, at: listed.offset, sharedStrings: sharedStrings, dates: dates,
                                     counts1904: counts1904, text: text, cells: &cells)
                rowsByOffset[listed.offset] = rows
            }
            sheets.append(Sheet(name: listed.name, rows: rows))
        }
        return Workbook(sheets: sheets)
    }

    /// Excel's own number formats that are dates or times, by number.
    private static let builtInDateFormats: Set<Int> = Set(14...22).union(27...36).union(45...47).union(50...58)

    private func rows(
        of sheet: String, at start: Int, sharedStrings: [String], dates: [Bool], counts1904: Bool, text: TextForm,
        cells budget: inout CellBudget
    ) throws(Problem) -> [SheetRow] {
        guard let first = try record(at: start), first.type == Self.bof else {
            throw .damaged("sheet '\(sheet)' is not where the workbook says it is")
        }
        var table: [Int: [Int: String]] = [:]
        // Each row's width so far: the empty cells before its last count
        // toward the budget, as the rows are made of them.
        var widths: [Int: Int] = [:]
        var depth = 0
        var offset = start
        var formulaCell: (row: Int, column: Int)?
        func put(_ row: Int, _ column: Int, _ text: String) throws(Problem) {
            guard !text.isEmpty else { return }
            guard column < FormLimits.columns else {
                throw .refused("sheet '\(sheet)' row \(row + 1): a cell lies beyond the last column a spreadsheet has (XFD)")
            }
            let width = widths[row] ?? 0
            if column >= width {
                guard budget.take(column + 1 - width) else {
                    throw .refused("the sheets hold more than \(FormLimits.cells) cells, counting the empty ones before each row's last")
                }
                widths[row] = column + 1
            }
            table[row, default: [:]][column] = text
        }
        func number(_ value: Double, style: Int, row: Int) throws(Problem) -> String {
            if dates.indices.contains(style), dates[style] {
                guard let shown = BIFFDates.shown(value, counts1904: counts1904) else {
                    throw .refused("sheet '\(sheet)' row \(row + 1): the date \(value) is before 1 March 1900 or past 9999, "
                        + "which Excel's day numbers cannot say; type it as text")
                }
                return shown
            }
            return XLSXReader.shownNumber(value == value.rounded() && abs(value) < 1e18 ? String(Int64(value)) : String(value))
        }
        while let record = try record(at: offset) {
            offset += 4 + record.body.count
            let body = record.body
            switch record.type {
            case Self.bof:
                depth += 1
            case Self.eof:
                depth -= 1
                if depth == 0 { offset = bytes.count }
            default:
                // Cells of a chart embedded in the sheet are not the sheet's.
                guard depth == 1, body.count >= 6 else { continue }
                let row = Self.u16(body, 0), column = Self.u16(body, 2), style = Self.u16(body, 4)
                switch record.type {
                case 0x00FD where body.count >= 10:  // LabelSst
                    let index = Int(Self.u32(body, 6))
                    if sharedStrings.indices.contains(index) { try put(row, column, XLSXReader.shownString(sharedStrings[index])) }
                case 0x0204, 0x00D6:  // Label, RString
                    var reader = Segments([body.dropFirst(6)])
                    try put(row, column, XLSXReader.shownString(try text.string(&reader, countBytes: 2)))
                case 0x0203 where body.count >= 14:  // Number
                    try put(row, column, try number(Self.double(body, 6), style: style, row: row))
                case 0x027E where body.count >= 10:  // RK
                    try put(row, column, try number(Self.rk(Self.u32(body, 6)), style: style, row: row))
                case 0x00BD:  // MulRk: several RK cells in a row
                    var index = 4
                    var at = column
                    while index + 6 <= body.count - 2 {
                        try put(row, at, try number(Self.rk(Self.u32(body, index + 2)), style: Self.u16(body, index), row: row))
                        index += 6
                        at += 1
                    }
                case 0x0205 where body.count >= 8:  // BoolErr
                    let value = Int(body[body.startIndex + 6])
                    try put(row, column, body[body.startIndex + 7] == 0 ? (value == 0 ? "FALSE" : "TRUE") : String(value))
                case 0x0006 where body.count >= 14:  // Formula: its cached result
                    formulaCell = nil
                    if Self.u16(body, 12) == 0xFFFF {
                        let kind = body[body.startIndex + 6], value = Int(body[body.startIndex + 8])
                        switch kind {
                        case 0: formulaCell = (row, column)  // text, in the String record next
                        case 1: try put(row, column, value == 0 ? "FALSE" : "TRUE")
                        case 2: try put(row, column, String(value))
                        default: break
                        }
                    } else {
                        try put(row, column, try number(Self.double(body, 6), style: style, row: row))
                    }
                default:
                    break
                }
            }
            if record.type == 0x0207, depth == 1, let cell = formulaCell {  // String: a formula's text, maybe continued
                var parts = [record.body]
                while let next = try self.record(at: offset), next.type == Self.continued {
                    parts.append(next.body)
                    offset += 4 + next.body.count
                }
                var reader = Segments(parts)
                try put(cell.row, cell.column, XLSXReader.shownString(try text.string(&reader, countBytes: 2)))
                formulaCell = nil
            }
        }
        return table.keys.sorted().map { row in
            let columns = table[row] ?? [:]
            var cells = [String](repeating: "", count: (columns.keys.max() ?? -1) + 1)
            for (column, text) in columns { cells[column] = text }
            return SheetRow(number: row + 1, cells: cells)
        }
    }

    /// The shared strings table: each string's characters, in order.
    private static func sharedStrings(_ segments: Segments) throws(Problem) -> [String] {
        var reader = segments
        guard reader.remaining >= 8 else { throw .damaged("its shared strings table is cut short") }
        _ = try reader.u32()
        let unique = Int(try reader.u32())
        guard unique <= FormLimits.sharedStrings else {
            throw .refused("it lists \(unique) shared strings; at most \(FormLimits.sharedStrings) are read")
        }
        var strings: [String] = []
        strings.reserveCapacity(min(unique, reader.remaining / 3))
        for _ in 0..<unique {
            // A table that says more than it holds ends where it ends, as xlrd reads it.
            guard reader.remaining >= 3 else { break }
            strings.append(try reader.richString())
        }
        return strings
    }

    /// Excel's compact number: a float's top 30 bits or a 30-bit integer,
    /// perhaps a hundredth of it.
    private static func rk(_ raw: UInt32) -> Double {
        let value: Double = raw & 2 != 0
            ? Double(Int32(bitPattern: raw) >> 2)
            : Double(bitPattern: UInt64(raw & 0xFFFF_FFFC) << 32)
        return raw & 1 != 0 ? value / 100 : value
    }

    private static func u16(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> Int {
        let base = bytes.startIndex + offset
        return Int(bytes[base]) | Int(bytes[base + 1]) << 8
    }

    private static func u32(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt32 {
        let base = bytes.startIndex + offset
        return UInt32(bytes[base]) | UInt32(bytes[base + 1]) << 8 | UInt32(bytes[base + 2]) << 16 | UInt32(bytes[base + 3]) << 24
    }

    private static func double(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> Double {
        var bits: UInt64 = 0
        for index in 0..<8 { bits |= UInt64(bytes[bytes.startIndex + offset + index]) << (8 * index) }
        return Double(bitPattern: bits)
    }
}

/// How a workbook writes text: BIFF8's strings say whether their
/// characters are one byte or two; Excel 5.0/95's are bytes in the
/// workbook's code page (Windows-1252 when it names none).
private struct TextForm {
    var legacy: Bool
    var codePage = 1252

    /// A string whose count is `countBytes` long (a sheet's name has one
    /// byte, a cell's text two).
    func string(_ reader: inout Segments, countBytes: Int) throws(BIFF.Problem) -> String {
        let count = countBytes == 1 ? Int(try reader.byte()) : try reader.u16()
        guard legacy else { return try reader.characters(count, highByte: try reader.byte() & 1 == 1) }
        let bytes = try reader.bytes(count)
        let encoding: String.Encoding = switch codePage {
        case 1250: .windowsCP1250
        case 1251: .windowsCP1251
        case 1253: .windowsCP1253
        case 1254: .windowsCP1254
        case 10000: .macOSRoman
        case 1200: .utf16LittleEndian
        default: .windowsCP1252
        }
        // Latin-1 reads any bytes: a code page this system lacks still gives text.
        return String(bytes: bytes, encoding: encoding) ?? String(decoding: bytes.map { UInt16($0) }, as: UTF16.self)
    }
}

/// A record's body and the CONTINUE records after it, read as one: a
/// string's characters that cross into the next part are preceded there by
/// a byte saying whether they are one byte or two each.
private struct Segments {
    private var parts: [ArraySlice<UInt8>]
    private var part = 0
    private var index: Int
    /// The bytes in the parts after each part: `remaining` in constant
    /// time, however many CONTINUE records a table has.
    private let after: [Int]

    init(_ parts: [ArraySlice<UInt8>]) {
        self.parts = parts
        index = parts.first?.startIndex ?? 0
        var after = [Int](repeating: 0, count: parts.count)
        var sum = 0
        for position in parts.indices.reversed() {
            after[position] = sum
            sum += parts[position].count
        }
        self.after = after
    }

    var remaining: Int {
        guard part < parts.count else { return 0 }
        return parts[part].endIndex - index + after[part]
    }

    private mutating func settle() {
        while part < parts.count, index >= parts[part].endIndex {
            part += 1
            if part < parts.count { index = parts[part].startIndex }
        }
    }

    mutating func byte() throws(BIFF.Problem) -> UInt8 {
        settle()
        guard part < parts.count else { throw .damaged("a string runs past its record") }
        defer { index += 1 }
        return parts[part][index]
    }

    mutating func u16() throws(BIFF.Problem) -> Int {
        Int(try byte()) | Int(try byte()) << 8
    }

    mutating func u32() throws(BIFF.Problem) -> UInt32 {
        UInt32(try u16()) | UInt32(try u16()) << 16
    }

    mutating func skip(_ count: Int) throws(BIFF.Problem) {
        guard count <= remaining else { throw .damaged("a string runs past its record") }
        var left = count
        while left > 0 {
            settle()
            let step = min(left, parts[part].endIndex - index)
            index += step
            left -= step
        }
    }

    /// `count` bytes as they are.
    mutating func bytes(_ count: Int) throws(BIFF.Problem) -> [UInt8] {
        guard count <= remaining else { throw .damaged("a string runs past its record") }
        var result: [UInt8] = []
        result.reserveCapacity(count)
        for _ in 0..<count { result.append(try byte()) }
        return result
    }

    /// `count` characters, one byte each (Latin-1) or two (UTF-16).
    mutating func characters(_ count: Int, highByte: Bool) throws(BIFF.Problem) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(count)
        var wide = highByte
        while units.count < count {
            if part < parts.count, index >= parts[part].endIndex {
                // Characters continued in the next record: its first byte says how wide they are.
                part += 1
                guard part < parts.count, !parts[part].isEmpty else { throw .damaged("a string runs past its record") }
                index = parts[part].startIndex
                wide = parts[part][index] & 1 == 1
                index += 1
                continue
            }
            guard part < parts.count else { throw .damaged("a string runs past its record") }
            if wide {
                guard index + 1 < parts[part].endIndex else { throw .damaged("a character is split between records") }
                units.append(UInt16(parts[part][index]) | UInt16(parts[part][index + 1]) << 8)
                index += 2
            } else {
                units.append(UInt16(parts[part][index]))
                index += 1
            }
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// XLUnicodeRichExtendedString: as above, with formatting runs and
    /// phonetic data after the characters, skipped.
    mutating func richString() throws(BIFF.Problem) -> String {
        let count = try u16()
        let flags = try byte()
        let runs = flags & 0x08 != 0 ? try u16() : 0
        let extended = flags & 0x04 != 0 ? Int(try u32()) : 0
        let text = try characters(count, highByte: flags & 1 == 1)
        try skip(4 * runs)
        try skip(extended)
        return text
    }
}

/// Dates in a legacy workbook, as xlrd reads them for pyxform.
enum BIFFDates {
    /// A date cell as xlrd makes it and Python prints it: to the nearest
    /// second (halves to even), a time alone when the day is 0; nil where
    /// xlrd refuses (before 1 March 1900 in Excel's count, negative, past 9999).
    static func shown(_ serial: Double, counts1904: Bool) -> String? {
        let limit = counts1904 ? 2_958_466 - 1462 : 2_958_466
        guard serial.isFinite, serial >= 0, serial < Double(limit) else { return nil }
        var days = Int(serial)
        let seconds = Int(((serial - Double(days)) * 86_400).rounded(.toNearestOrEven))
        var hour = 0, minute = 0, second = 0
        if seconds >= 86_400 {
            days += 1
        } else {
            (hour, minute, second) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        }
        guard days < limit else { return nil }
        let time = String(format: "%02d:%02d:%02d", hour, minute, second)
        if days == 0 { return time }
        guard counts1904 || days >= 61 else { return nil }
        // Day 0 is 1899-12-30 (or 1904-01-01): Julian day numbers, then the civil date.
        let julian = days + (counts1904 ? 2_416_481 : 2_415_019)
        let a = julian + 32_044
        let b = (4 * a + 3) / 146_097
        let c = a - 146_097 * b / 4
        let d = (4 * c + 3) / 1461
        let e = c - 1461 * d / 4
        let m = (5 * e + 2) / 153
        let day = e - (153 * m + 2) / 5 + 1
        let month = m + 3 - 12 * (m / 10)
        let year = 100 * b + d - 4800 + m / 10
        return String(format: "%04d-%02d-%02d ", year, month, day) + time
    }
}
