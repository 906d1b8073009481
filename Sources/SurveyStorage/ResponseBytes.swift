import CSQLite
import Foundation
import GRDB

/// One response's fields as bytes, the way an export reads them: one buffer,
/// filled again for each row, so that writing 100,000 responses makes no
/// String or Date per field. A stored row fills it straight from the
/// database; a `FormResponse` (a server's, an old table's) fills it too.
final class ResponseBytes {
    /// A time as the store writes it (`yyyy-MM-dd HH:mm:ss`, a fraction after
    /// it cut), where it is in `bytes`; or any other, as a date.
    enum Time {
        case stored(Range<Int>)
        case date(Date)
    }

    /// Every field's bytes, one after another.
    private(set) var bytes: [UInt8] = []
    /// The answers, in stored order.
    private(set) var answers: [StoredAnswers.Span] = []
    private(set) var submittedAt = Time.date(.distantPast)
    private(set) var startedAt = Time.date(.distantPast)
    private(set) var instanceID = 0..<0
    private(set) var formVersion = 0..<0

    init() {
        bytes.reserveCapacity(4_096)
    }

    func fill(from response: FormResponse) {
        var buffer = takeBuffer()
        instanceID = Self.append(response.instanceID, to: &buffer)
        formVersion = Self.append(response.formVersion, to: &buffer)
        answers = response.answers.map { Self.append($0, to: &buffer) }
        (bytes, submittedAt, startedAt) = (buffer, .date(response.submittedAt), .date(response.startedAt))
    }

    /// Fills from `row`, the current row of `statement`, a query of
    /// `submittedAt, startedAt, instanceID, formVersion, answers`.
    func fill(from row: Row, of statement: SQLiteStatement) throws {
        // Filled in locals and stored once: a class's properties are checked
        // for exclusive access at every use.
        var buffer = takeBuffer()
        var spans = answers
        answers = []
        spans.removeAll(keepingCapacity: true)
        let submitted = try Self.time(row, statement, 0, &buffer)
        let started = try Self.time(row, statement, 1, &buffer)
        let instance = Self.append(Self.column(statement, 2), to: &buffer)
        let version = Self.append(Self.column(statement, 3), to: &buffer)
        let json = Self.column(statement, 4)
        if !StoredAnswers.scan(json, appendingTo: &buffer, &spans) {
            // Not the store's own shape, but JSON all the same.
            spans += try StoredAnswers.decode(Data(json)).map { Self.append($0, to: &buffer) }
        }
        (bytes, answers, submittedAt, startedAt, instanceID, formVersion) = (buffer, spans, submitted, started, instance, version)
    }

    /// `body` with the bytes of `range`.
    func withBytes<Result>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// The emptied buffer, its capacity kept, for a fill to take.
    private func takeBuffer() -> [UInt8] {
        var buffer = bytes
        bytes = []
        buffer.removeAll(keepingCapacity: true)
        return buffer
    }

    /// The bytes of column `index` of the statement's current row, where
    /// SQLite holds them (valid until the next step); none for NULL. GRDB's
    /// `Row` would wrap each in a `Data`: two allocations per column.
    private static func column(_ statement: SQLiteStatement, _ index: CInt) -> UnsafeRawBufferPointer {
        // NB: blob before bytes, as SQLite's documentation asks.
        guard let start = sqlite3_column_blob(statement, index) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, index)))
    }

    /// The column `index` as a time: the stored text where it has the
    /// store's shape, or what GRDB reads of it (another shape, a number).
    private static func time(_ row: Row, _ statement: SQLiteStatement, _ index: CInt, _ buffer: inout [UInt8]) throws -> Time {
        if sqlite3_column_type(statement, index) == SQLITE_TEXT {
            let text = column(statement, index)
            if text.count >= 19, hasStoredShape(text) {
                return .stored(append(UnsafeRawBufferPointer(rebasing: text[..<19]), to: &buffer))
            }
        }
        return .date(try row.decode(Date.self, atIndex: Int(index)))
    }

    /// `yyyy-MM-dd HH:mm:ss`, then nothing or a fraction.
    private static func hasStoredShape(_ text: UnsafeRawBufferPointer) -> Bool {
        func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
        for offset in 0..<19 {
            let byte = text[offset]
            switch offset {
            case 4, 7: guard byte == UInt8(ascii: "-") else { return false }
            case 10: guard byte == UInt8(ascii: " ") else { return false }
            case 13, 16: guard byte == UInt8(ascii: ":") else { return false }
            default: guard isDigit(byte) else { return false }
            }
        }
        guard text.count > 19 else { return true }
        return text[19] == UInt8(ascii: ".") && text.count > 20 && text[20...].allSatisfy(isDigit)
    }

    private static func append(_ answer: FormResponse.Answer, to buffer: inout [UInt8]) -> StoredAnswers.Span {
        StoredAnswers.Span(path: append(answer.path, to: &buffer), value: append(answer.value, to: &buffer), kind: answer.kind)
    }

    private static func append(_ text: String, to buffer: inout [UInt8]) -> Range<Int> {
        let start = buffer.count
        buffer += text.utf8
        return start..<buffer.count
    }

    private static func append(_ raw: UnsafeRawBufferPointer, to buffer: inout [UInt8]) -> Range<Int> {
        let start = buffer.count
        buffer.append(contentsOf: raw)
        return start..<buffer.count
    }
}
