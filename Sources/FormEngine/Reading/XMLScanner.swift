import Foundation

/// A small pull scanner over XML bytes, for every part of a workbook a form
/// reads.
///
/// NB: Foundation's XMLParser builds a String and an attribute dictionary for
/// every element on Linux; a 5,000-question sheet took it about 90 ms, most of
/// the time to read a form. This reads the same events from the bytes in place.
/// It checks what a form reader needs of well-formedness (terminated markup,
/// matching end tags) and decodes the predefined and numeric entities.
struct XMLScanner {
    enum Event {
        case start(name: Range<Int>, attributes: Range<Int>, isEmpty: Bool)
        case end(name: Range<Int>)
        case text(Range<Int>, isCDATA: Bool)
    }

    struct Malformed: Error {
        /// Well-formed as far as read, but nested past `FormLimits.xmlDepth`.
        var isTooDeep = false
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var open: [Range<Int>] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Runs `read` over a scanner of `data`'s bytes: what it returns, or
    /// `nil` when the XML is not well-formed. A limit `read` reaches, or
    /// nesting past `FormLimits.xmlDepth`, is thrown.
    static func scan<Result>(_ data: Data, _ read: (inout XMLScanner) throws -> Result) throws(LimitExceeded) -> Result? {
        let outcome: Swift.Result<Result?, LimitExceeded> = data.withUnsafeBytes { raw in
            var scanner = XMLScanner(raw.bindMemory(to: UInt8.self))
            do {
                return .success(try read(&scanner))
            } catch let limit as LimitExceeded {
                return .failure(limit)
            } catch let malformed as Malformed where malformed.isTooDeep {
                return .failure(LimitExceeded("its XML nests elements more than \(FormLimits.xmlDepth) deep; a sheet nests six"))
            } catch {
                return .success(nil)
            }
        }
        return try outcome.get()
    }

    /// The next event, or `nil` at the end of a well-formed document.
    mutating func next() throws(Malformed) -> Event? {
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                let start = index
                index = Self.find(UInt8(ascii: "<"), in: bytes, from: index)
                if open.isEmpty { continue }  // white space around the root
                return .text(start..<index, isCDATA: false)
            }
            let marker = index + 1 < bytes.count ? bytes[index + 1] : 0
            if marker != UInt8(ascii: "!"), marker != UInt8(ascii: "?"), marker != UInt8(ascii: "/") {
                return try startTag()
            }
            if marker == UInt8(ascii: "/") {
                let nameStart = index + 2
                var nameEnd = nameStart
                while nameEnd < bytes.count, !Self.endsName(bytes[nameEnd]) { nameEnd += 1 }
                index = Self.find(UInt8(ascii: ">"), in: bytes, from: nameEnd)
                guard index < bytes.count else { throw Malformed() }
                index += 1
                guard let top = open.popLast(), equal(top, nameStart..<nameEnd) else { throw Malformed() }
                return .end(name: nameStart..<nameEnd)
            }
            if startsWith("<!--") {
                index = try position(after: "-->", from: index + 4)
            } else if startsWith("<![CDATA[") {
                let start = index + 9
                index = try position(after: "]]>", from: start)
                return .text(start..<(index - 3), isCDATA: true)
            } else if startsWith("<?") {
                index = try position(after: "?>", from: index + 2)
            } else if startsWith("<!") {
                index = try position(after: ">", from: index + 2)
            } else {
                return try startTag()
            }
        }
        guard open.isEmpty else { throw Malformed() }
        return nil
    }

    private mutating func startTag() throws(Malformed) -> Event {
        let nameStart = index + 1
        var cursor = nameStart
        while cursor < bytes.count, !Self.endsName(bytes[cursor]) { cursor += 1 }
        let name = nameStart..<cursor
        guard !name.isEmpty else { throw Malformed() }
        let attributesStart = cursor
        var quote: UInt8?
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                break
            }
            cursor += 1
        }
        guard cursor < bytes.count else { throw Malformed() }
        let isEmpty = cursor > attributesStart && bytes[cursor - 1] == UInt8(ascii: "/")
        let attributes = attributesStart..<(isEmpty ? cursor - 1 : cursor)
        index = cursor + 1
        if !isEmpty {
            guard open.count < FormLimits.xmlDepth else { throw Malformed(isTooDeep: true) }
            open.append(name)
        }
        return .start(name: name, attributes: attributes, isEmpty: isEmpty)
    }

    // MARK: - Reading what an event points at

    /// Whether the element name in `range`, without its prefix, is `local`.
    func name(_ range: Range<Int>, is local: StaticString) -> Bool {
        bytes(localName(range), are: local)
    }

    /// The element name in `range` without its prefix (`x:row` → `row`).
    func localName(_ range: Range<Int>) -> Range<Int> {
        var start = range.lowerBound
        for position in range where bytes[position] == UInt8(ascii: ":") { start = position + 1 }
        return start..<range.upperBound
    }

    /// Whether the bytes in `range` are exactly `text`'s.
    func bytes(_ range: Range<Int>, are text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        let pointer = text.utf8Start
        for offset in 0..<text.utf8CodeUnitCount where bytes[range.lowerBound + offset] != pointer[offset] { return false }
        return true
    }

    /// Where the value of the attribute named `local` (without prefix) is,
    /// entities not yet decoded; for reading it without making a string.
    /// `prefixed`: only an attribute in a namespace (`r:id`, not `id`).
    func attributeValue(_ local: StaticString, in range: Range<Int>, prefixed: Bool = false) -> Range<Int>? {
        var found: Range<Int>?
        forEachAttribute(in: range) { name, value in
            guard self.name(name, is: local), !prefixed || localName(name) != name else { return true }
            found = value
            return false
        }
        return found
    }

    /// Every attribute in a start tag's `range`, in order: its name as written
    /// (`jr:count`) and its value with entities decoded; namespace
    /// declarations (`xmlns`, `xmlns:jr`) left out.
    func attributes(in range: Range<Int>) -> [(name: String, value: String)] {
        var found: [(name: String, value: String)] = []
        forEachAttribute(in: range) { name, value in
            let written = text(name)
            if !written.isEmpty, written != "xmlns", !written.hasPrefix("xmlns:") { found.append((written, text(value))) }
            return true
        }
        return found
    }

    /// Calls `visit` with each attribute's name and value (without quotes)
    /// in a start tag's `range`, until it returns false.
    private func forEachAttribute(in range: Range<Int>, _ visit: (_ name: Range<Int>, _ value: Range<Int>) -> Bool) {
        var cursor = range.lowerBound
        while cursor < range.upperBound {
            while cursor < range.upperBound, Self.isSpace(bytes[cursor]) { cursor += 1 }
            let nameStart = cursor
            while cursor < range.upperBound, bytes[cursor] != UInt8(ascii: "="), !Self.isSpace(bytes[cursor]) { cursor += 1 }
            let name = nameStart..<cursor
            while cursor < range.upperBound, bytes[cursor] != UInt8(ascii: "\""), bytes[cursor] != UInt8(ascii: "'") { cursor += 1 }
            guard cursor < range.upperBound else { return }
            let quote = bytes[cursor]
            let valueStart = cursor + 1
            cursor = valueStart
            while cursor < range.upperBound, bytes[cursor] != quote { cursor += 1 }
            guard visit(name, valueStart..<min(cursor, range.upperBound)) else { return }
            cursor += 1
        }
    }

    /// The decimal digits in `range` as a number, appended to the digits read
    /// before (`continuing`); `nil` when anything else is there.
    func integer(_ range: Range<Int>, continuing previous: Int) -> Int? {
        var result = previous
        for position in range {
            let digit = bytes[position] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, overflow) = result.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            result = shifted &+ Int(digit)
        }
        return result
    }

    /// Whether `range` holds decimal digits and nothing else.
    func isDigits(_ range: Range<Int>) -> Bool {
        !range.isEmpty && range.allSatisfy { bytes[$0] &- UInt8(ascii: "0") < 10 }
    }

    /// The decimal digits in `range` as a number, or `nil`.
    func integer(_ range: Range<Int>) -> Int? {
        range.isEmpty ? nil : integer(range, continuing: 0)
    }

    /// Where a cell's `r` reference (`C7`) puts it.
    enum CellColumn: Equatable {
        case unnamed
        /// Zero-based: `C` is 2.
        case index(Int)
        /// Past the format's last column, `XFD`.
        case beyondLastColumn
    }

    /// The column of a cell's `r` reference, read from the bytes: it is read
    /// for every cell of a sheet.
    func cellColumn(in range: Range<Int>) -> CellColumn {
        var cursor = range.lowerBound
        while cursor + 2 < range.upperBound {
            if bytes[cursor] == UInt8(ascii: "r"), bytes[cursor + 1] == UInt8(ascii: "="),
               cursor == range.lowerBound || Self.isSpace(bytes[cursor - 1]) {
                var index = 0
                var position = cursor + 3
                while position < range.upperBound {
                    let byte = bytes[position] | 0x20
                    guard byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") else { break }
                    // Checked before it can grow: a reference of twenty letters is not a column.
                    index = index * 26 + Int(byte - UInt8(ascii: "a") + 1)
                    guard index <= FormLimits.columns else { return .beyondLastColumn }
                    position += 1
                }
                return index > 0 ? .index(index - 1) : .unnamed
            }
            cursor += 1
        }
        return .unnamed
    }

    /// The text in `range` with its entities decoded, and its line ends
    /// as XML reads them: a literal CR LF or CR is one LF (a `&#13;` stays a CR).
    func text(_ range: Range<Int>, isCDATA: Bool = false) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        guard slice.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "\r") }) else {
            return String(decoding: slice, as: UTF8.self)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(slice.count)
        var cursor = range.lowerBound
        while cursor < range.upperBound {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\r") {
                decoded.append(UInt8(ascii: "\n"))
                cursor += 1
                if cursor < range.upperBound, bytes[cursor] == UInt8(ascii: "\n") { cursor += 1 }
                continue
            }
            guard !isCDATA, byte == UInt8(ascii: "&"),
                  let semicolon = (cursor..<min(range.upperBound, cursor + 12)).first(where: { bytes[$0] == UInt8(ascii: ";") })
            else {
                decoded.append(byte)
                cursor += 1
                continue
            }
            let entity = String(decoding: UnsafeBufferPointer(rebasing: bytes[(cursor + 1)..<semicolon]), as: UTF8.self)
            if let scalar = Self.entity(entity) {
                decoded.append(contentsOf: Array(String(Character(scalar)).utf8))
                cursor = semicolon + 1
            } else {
                decoded.append(byte)
                cursor += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    // MARK: - Helpers

    /// The position of the next `byte` from `start`, or the end: memchr, which
    /// reads many bytes at a time, for the long runs of text between tags.
    private static func find(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < bytes.count, let base = bytes.baseAddress else { return bytes.count }
        guard let found = memchr(base + start, Int32(byte), bytes.count - start) else { return bytes.count }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    private static func entity(_ name: String) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init)
        }
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private func startsWith(_ prefix: StaticString) -> Bool {
        guard index + prefix.utf8CodeUnitCount <= bytes.count else { return false }
        let pointer = prefix.utf8Start
        for offset in 0..<prefix.utf8CodeUnitCount where bytes[index + offset] != pointer[offset] { return false }
        return true
    }

    /// The position just after the next `terminator` from `start`.
    private func position(after terminator: StaticString, from start: Int) throws(Malformed) -> Int {
        let count = terminator.utf8CodeUnitCount
        let pointer = terminator.utf8Start
        var cursor = start
        while cursor + count <= bytes.count {
            var matches = true
            for offset in 0..<count where bytes[cursor + offset] != pointer[offset] {
                matches = false
                break
            }
            if matches { return cursor + count }
            cursor += 1
        }
        throw Malformed()
    }

    private func equal(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        for offset in 0..<a.count where bytes[a.lowerBound + offset] != bytes[b.lowerBound + offset] { return false }
        return true
    }
}
