import Foundation

/// A JSON value that keeps its objects' keys in the order they were given, so
/// that what the engine prints reads in the order the contract lists it.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// `value` as a JSON string, or `null` when it is `nil`.
    static func string(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    /// The value as compact JSON text.
    public var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let value): output += Self.format(value)
        case .string(let value): Self.quote(value, into: &output)
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                Self.quote(key, into: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }

    /// Whole numbers without a fraction; others in their shortest exact form.
    private static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    private static func quote(_ text: String, into output: inout String) {
        output += "\""
        // Most answers have nothing to escape: they go in whole. The rest
        // are copied byte by byte, not scalar by scalar (the outbox quotes
        // every answer it sends).
        if !needsEscaping(text) {
            output += text
        } else {
            output += String(decoding: escaped(text), as: UTF8.self)
        }
        output += "\""
    }

    /// `text`'s UTF-8 with what JSON (and a terminal reading it) must not
    /// see raw escaped: C0 controls, `"`, `\\`, DEL, C1 controls and the
    /// line and paragraph separators.
    private static func escaped(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        func unicode(_ value: UInt32) {
            let digits = Array("0123456789abcdef".utf8)
            bytes += [0x5C, 0x75] + [12, 8, 4, 0].map { digits[Int((value >> $0) & 0xF)] }
        }
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case 0x22: bytes += [0x5C, 0x22]
            case 0x5C: bytes += [0x5C, 0x5C]
            case 0x0A: bytes += [0x5C, 0x6E]
            case 0x0D: bytes += [0x5C, 0x72]
            case 0x09: bytes += [0x5C, 0x74]
            case ..<0x20, 0x7F: unicode(UInt32(byte))
            case 0x80...0x9F where previous == 0xC2:
                // U+0080–U+009F: the lead byte went out already.
                bytes.removeLast()
                unicode(UInt32(byte))
            case 0xA8...0xA9 where previous == 0x80 && beforePrevious == 0xE2:
                // U+2028 and U+2029, E2 80 A8–A9.
                bytes.removeLast(2)
                unicode(0x2028 + UInt32(byte - 0xA8))
            default: bytes.append(byte)
            }
            beforePrevious = previous
            previous = byte
        }
        return bytes
    }

    /// Whether `text` holds a scalar `quote` escapes, read from its UTF-8:
    /// C0 controls, `"`, `\\`, DEL, C1 controls (C2 80–C2 9F) and the line
    /// and paragraph separators (E2 80 A8–A9).
    private static func needsEscaping(_ text: String) -> Bool {
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F { return true }
            if previous == 0xC2 && (0x80...0x9F).contains(byte) { return true }
            if beforePrevious == 0xE2 && previous == 0x80 && (byte == 0xA8 || byte == 0xA9) { return true }
            beforePrevious = previous
            previous = byte
        }
        return false
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }
}
