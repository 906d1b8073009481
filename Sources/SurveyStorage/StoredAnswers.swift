import Foundation

/// Reads a response's `answers` column: the JSON array of `{path, value,
/// kind}` objects the store writes. An export reads it for every response,
/// and JSONDecoder took nine tenths of an export of 100,000; this reads that
/// one shape byte by byte, and hands anything else to JSONDecoder.
enum StoredAnswers {
    /// One answer as `scan` finds it: where its path and value bytes (escapes
    /// resolved) lie in the buffer it appended them to.
    struct Span {
        var path: Range<Int>
        var value: Range<Int>
        var kind: FormResponse.Kind?
    }

    static func decode(_ data: Data) throws -> [FormResponse.Answer] {
        var buffer: [UInt8] = []
        var spans: [Span] = []
        let answers: [FormResponse.Answer]? = data.withUnsafeBytes { bytes in
            guard scan(bytes, appendingTo: &buffer, &spans) else { return nil }
            return buffer.withUnsafeBufferPointer { buffer in
                var answers: [FormResponse.Answer] = []
                answers.reserveCapacity(spans.count)
                for span in spans {
                    guard let path = String(validating: buffer[span.path], as: UTF8.self),
                          let value = String(validating: buffer[span.value], as: UTF8.self) else { return nil }
                    answers.append(FormResponse.Answer(path: path, value: value, kind: span.kind))
                }
                return answers
            }
        }
        if let answers { return answers }
        return try JSONDecoder().decode([FormResponse.Answer].self, from: data)
    }

    /// Appends the answers in `bytes` to `buffer` and `spans`, and says
    /// whether `bytes` is the store's own shape; when it is not, both are
    /// left as they were. The bytes are not checked to be UTF-8.
    static func scan(_ bytes: UnsafeRawBufferPointer, appendingTo buffer: inout [UInt8], _ spans: inout [Span]) -> Bool {
        let (bufferCount, spanCount) = (buffer.count, spans.count)
        var reader = Reader(bytes: bytes)
        if reader.answers(into: &buffer, &spans) { return true }
        buffer.removeSubrange(bufferCount...)
        spans.removeSubrange(spanCount...)
        return false
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        /// False for anything but the store's own shape.
        mutating func answers(into buffer: inout [UInt8], _ spans: inout [Span]) -> Bool {
            guard take(UInt8(ascii: "[")) else { return false }
            if take(UInt8(ascii: "]")) { return true }
            repeat {
                guard let span = answer(into: &buffer) else { return false }
                spans.append(span)
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "]")) else { return false }
            skipSpace()
            return index == bytes.count
        }

        private mutating func answer(into buffer: inout [UInt8]) -> Span? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var path: Range<Int>?, value: Range<Int>?, kind: FormResponse.Kind?
            repeat {
                guard let name = word(), take(UInt8(ascii: ":")) else { return nil }
                if name.is("path"), let text = string(into: &buffer) {
                    path = text
                } else if name.is("value"), let text = string(into: &buffer) {
                    value = text
                } else if name.is("kind"), let text = word() {
                    if text.is("number") {
                        kind = .number
                    } else if text.is("boolean") {
                        kind = .boolean
                    } else if text.is("attachment") {
                        kind = .attachment
                    } else {
                        return nil
                    }
                } else {
                    return nil
                }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")), let path, let value else { return nil }
            return Span(path: path, value: value, kind: kind)
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

        /// A string the store writes as it is (a key, a kind): no escapes.
        private mutating func word() -> UnsafeRawBufferPointer? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                index += 1
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            return UnsafeRawBufferPointer(rebasing: bytes[start..<index - 1])
        }

        /// A JSON string, appended to `buffer` with its escapes read as JSON
        /// defines them; where it lies there.
        private mutating func string(into buffer: inout [UInt8]) -> Range<Int>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = buffer.count
            var run = index
            while true {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                    index += 1
                }
                guard index < bytes.count else { return nil }
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[run..<index]))
                guard bytes[index] == UInt8(ascii: "\\") else { break }
                index += 1
                guard index < bytes.count else { return nil }
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(bytes[index])
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
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
                    buffer += UTF8.encode(character)!
                default:
                    return nil
                }
                index += 1
                run = index
            }
            index += 1
            return start..<buffer.count
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

extension UnsafeRawBufferPointer {
    /// Whether these are the bytes of `text`.
    fileprivate func `is`(_ text: StaticString) -> Bool {
        count == text.utf8CodeUnitCount && (isEmpty || memcmp(baseAddress!, text.utf8Start, count) == 0)
    }
}
