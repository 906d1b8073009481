import Foundation
import FormEngine

/// RFC 4180 CSV as every export writes it: a header line, CRLF line breaks,
/// fields quoted when they hold a comma, a quote or a line break.
///
/// The file is for spreadsheets, so it is made safe to open in one: it starts
/// with a UTF-8 byte-order mark (without it LibreOffice and Excel read "Zoë"
/// as Latin-1), and a text answer that a spreadsheet would run as a formula
/// (one beginning with `=`, `+`, `-`, `@`, a tab or a carriage return) is
/// written with a leading `'`, as OWASP recommends. Numbers, times and
/// booleans are the app's own and written as they are.
enum CSVFile {
    /// Tells spreadsheets that the file is UTF-8.
    static let byteOrderMark = "\u{FEFF}"

    /// Writes `header` and each row `rows` emits to `url`, atomically and in
    /// 64 KiB pieces, so that memory stays flat whatever the number of rows.
    static func write<Row>(
        to url: URL, replacing: Bool, header: [String],
        appendRow: (Row, inout [UInt8]) -> Void,
        rows: (_ emit: (Row) throws -> Void) throws -> Void
    ) throws {
        do {
            try AtomicFile.write(to: url, existing: replacing ? .replace : .refuse) { append in
                var buffer = Array(byteOrderMark.utf8)
                for (index, name) in header.enumerated() {
                    if index > 0 { buffer.append(0x2C) }
                    appendText(name, keepingLineBreaks: false, to: &buffer)
                }
                buffer += [0x0D, 0x0A]
                buffer.reserveCapacity(65_536 + 4_096)
                // NB: `rows`, `appendRow` and `append` are all non-escaping; Swift
                // refuses a closure holding one passed to another unless told
                // they stay put.
                try withoutActuallyEscaping(append) { append in
                    try withoutActuallyEscaping(appendRow) { appendRow in
                        try rows { row in
                            appendRow(row, &buffer)
                            buffer += [0x0D, 0x0A]
                            if buffer.count >= 65_536 {
                                try append(Data(buffer))
                                buffer.removeAll(keepingCapacity: true)
                            }
                        }
                    }
                }
                try append(Data(buffer))
            }
        } catch let error as StorageError where error.code == .fileExists {
            throw error
        } catch {
            throw StorageError(tr("The export to %@ failed: %@", url.path, error.localizedDescription))
        }
    }

    /// A text answer as a cell: control and bidi characters gone (answers
    /// stored by older versions may have them), a formula neutralised (a
    /// leading `'`), quoted where it holds a comma, a quote or a line break.
    static func appendText(_ answer: String, keepingLineBreaks: Bool, to bytes: inout [UInt8]) {
        var text = answer
        text.withUTF8 { appendText(UnsafeRawBufferPointer($0), keepingLineBreaks: keepingLineBreaks, to: &bytes) }
    }

    /// The same for text as UTF-8 bytes (invalid sequences read as U+FFFD).
    static func appendText(_ utf8: UnsafeRawBufferPointer, keepingLineBreaks: Bool, to bytes: inout [UInt8]) {
        // Most answers are printable ASCII and have nothing to remove.
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            appendCleanText(utf8, to: &bytes)
            return
        }
        var text = String(decoding: utf8, as: UTF8.self).removingControlCharacters(keepingLineBreaks: keepingLineBreaks)
        text.withUTF8 { appendCleanText(UnsafeRawBufferPointer($0), to: &bytes) }
    }

    private static func appendCleanText(_ utf8: UnsafeRawBufferPointer, to bytes: inout [UInt8]) {
        // Bytes, not Characters: "\r\n" is one Character and equals neither,
        // and a quote followed by a combining mark is still a quote to CSV.
        var quotes = false
        var quoted = false
        for byte in utf8 {
            switch byte {
            case 0x22: quotes = true; quoted = true
            case 0x2C, 0x0A, 0x0D: quoted = true
            default: continue
            }
        }
        if quoted { bytes.append(0x22) }
        if let first = utf8.first, formulaStarts.contains(first) { bytes.append(0x27) }
        if quotes {
            for byte in utf8 {
                if byte == 0x22 { bytes.append(0x22) }
                bytes.append(byte)
            }
        } else {
            bytes.append(contentsOf: utf8)
        }
        if quoted { bytes.append(0x22) }
    }

    /// `=`, `+`, `-`, `@`, tab and carriage return: what makes a spreadsheet
    /// run a cell as a formula.
    private static let formulaStarts: [UInt8] = [0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D]

    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// `2027-01-15T08:00:00Z`: ISO 8601 in UTC, whole seconds, from the
    /// calendar fields directly; a date formatter per row was most of the time
    /// an export of many responses took.
    static func appendTimestamp(_ date: Date, to bytes: inout [UInt8]) {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var fields = tm()
        gmtime_r(&seconds, &fields)
        func digits(_ value: Int32, _ count: Int) {
            var divisor: Int32 = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(0x30 + UInt8(truncatingIfNeeded: rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(fields.tm_year + 1900, 4)
        bytes.append(0x2D)
        digits(fields.tm_mon + 1, 2)
        bytes.append(0x2D)
        digits(fields.tm_mday, 2)
        bytes.append(0x54)
        digits(fields.tm_hour, 2)
        bytes.append(0x3A)
        digits(fields.tm_min, 2)
        bytes.append(0x3A)
        digits(fields.tm_sec, 2)
        bytes.append(0x5A)
    }
}
