import Foundation

/// Reads a response's `answers` column: the JSON array of `{path, value,
/// kind}` objects the store writes. An export reads it for every response,
/// and JSONDecoder took nine tenths of an export of 100,000; this reads that
/// one shape byte by byte, and hands anything else to JSONDecoder.
enum StoredAnswers {
    static func decode(_ data: Data) throws -> [FormResponse.Answer] {
        if let answers = data.withUnsafeBytes({ bytes in
            var reader = Reader(bytes: bytes)
            return reader.answers()
        }) {
            return answers
        }
        return try JSONDecoder().decode([FormResponse.Answer].self, from: data)
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        /// The answers, or `nil` for anything but the store's own shape.
        mutating func answers() -> [FormResponse.Answer]? {
            guard take(UInt8(ascii: "[")) else { return nil }
            var answers: [FormResponse.Answer] = []
            if take(UInt8(ascii: "]")) { return answers }
            repeat {
                guard let answer = answer() else { return nil }
                answers.append(answer)
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "]")) else { return nil }
            skipSpace()
            return index == bytes.count ? answers : nil
        }

        private mutating func answer() -> FormResponse.Answer? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var path: String?, value: String?, kind: FormResponse.Kind?
            repeat {
                guard let key = string(), take(UInt8(ascii: ":")), let text = string() else { return nil }
                switch key {
                case "path": path = text
                case "value": value = text
                case "kind":
                    guard let known = FormResponse.Kind(rawValue: text) else { return nil }
                    kind = known
                default: return nil
                }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")), let path, let value else { return nil }
            return FormResponse.Answer(path: path, value: value, kind: kind)
        }

        private mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A JSON string; its escapes read as JSON defines them.
        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                index += 1
            }
            guard index < bytes.count else { return nil }
            var utf8 = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            while bytes[index] == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { return nil }
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(bytes[index])
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    guard let unit = hex4(at: index + 1) else { return nil }
                    index += 4
                    var scalar = UInt32(unit)
                    if (0xD800..<0xDC00).contains(unit) {
                        // A surrogate pair: the low half must follow.
                        guard index + 6 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\"),
                              bytes[index + 2] == UInt8(ascii: "u"), let low = hex4(at: index + 3),
                              (0xDC00..<0xE000).contains(low) else { return nil }
                        index += 6
                        scalar = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
                    }
                    guard let character = Unicode.Scalar(scalar) else { return nil }
                    utf8 += Array(String(character).utf8)
                default:
                    return nil
                }
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                    utf8.append(bytes[index])
                    index += 1
                }
                guard index < bytes.count else { return nil }
            }
            index += 1
            return String(validating: utf8, as: UTF8.self)
        }

        private func hex4(at position: Int) -> UInt16? {
            guard position + 4 <= bytes.count else { return nil }
            var value: UInt16 = 0
            for offset in 0..<4 {
                let byte = bytes[position + offset]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt16(digit)
            }
            return value
        }
    }
}
