import CZlib
import Foundation

/// The parts of a zip archive (an `.xlsx` workbook), read from its bytes.
///
/// NB: ZIPFoundation's inflate loop on Linux never ends on a deflate stream
/// that stops early (a half-downloaded file). zlib's `inflate` either reaches
/// the stream's end or says that the input ran out, so each part is unpacked
/// by zlib, into a buffer that may not pass `FormLimits.partBytes`, and
/// nothing the archive says about sizes or offsets is used unchecked.
struct ZipArchive {
    /// One part as the central directory describes it.
    struct Entry {
        var name: String
        var method: UInt16
        var flags: UInt16
        var crc32: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        var localHeaderOffset: Int
    }

    /// Why a part or the archive cannot be read: `damaged` for what is not a
    /// zip or is cut short, `tooLarge` for a limit.
    enum Failure: Error {
        case damaged(String)
        case tooLarge(String)
    }

    private let data: Data
    private var entries: [String: Entry] = [:]
    /// The same entries by lower-case name: part names are case-insensitive
    /// in Office files.
    private var foldedEntries: [String: Entry] = [:]
    /// What the parts read so far unpacked to, against `FormLimits.workbookBytes`.
    private(set) var unpackedBytes = 0

    init(_ data: Data) throws(Failure) {
        self.data = data
        // Data's closures throw untyped errors: carry the typed one out in a Result.
        let directory = try data.withUnsafeBytes { raw in
            Result { () throws(Failure) in try Self.readDirectory(raw) }
        }.get()
        for entry in directory where entries[entry.name] == nil {
            entries[entry.name] = entry
            let folded = entry.name.lowercased()
            if foldedEntries[folded] == nil { foldedEntries[folded] = entry }
        }
    }

    private func entry(_ name: String) -> Entry? {
        entries[name] ?? foldedEntries[name.lowercased()]
    }

    /// The unpacked bytes of the part named `name`, or `nil` when there is none.
    mutating func contents(of name: String) throws(Failure) -> Data? {
        guard let entry = entry(name) else { return nil }
        let left = FormLimits.workbookBytes - unpackedBytes
        let budget = Budget(bytes: min(FormLimits.partBytes, left), isWholeWorkbook: left < FormLimits.partBytes)
        let contents = try data.withUnsafeBytes { raw in
            Result { () throws(Failure) in try Self.unpack(entry, from: raw, budget: budget) }
        }.get()
        unpackedBytes += contents.count
        return contents
    }

    // MARK: - The directory

    private static let endOfDirectorySignature: UInt32 = 0x0605_4B50
    private static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    private static let zip64EndSignature: UInt32 = 0x0606_4B50
    private static let directoryEntrySignature: UInt32 = 0x0201_4B50
    private static let localHeaderSignature: UInt32 = 0x0403_4B50

    private static func readDirectory(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> [Entry] {
        let reader = ByteReader(bytes)
        // The end record is the last 22 bytes, before a comment of at most 64 KiB.
        let lastCandidate = bytes.count - 22
        guard lastCandidate >= 0 else { throw .damaged("it is not a zip archive") }
        var end: Int?
        var candidate = lastCandidate
        while candidate >= max(0, lastCandidate - 0xFFFF) {
            if reader.u32(candidate) == endOfDirectorySignature { end = candidate; break }
            candidate -= 1
        }
        guard let end else { throw .damaged("it is not a zip archive") }

        var count = Int(reader.u16(end + 10))
        var directorySize = Int(reader.u32(end + 12))
        var directoryOffset = Int(reader.u32(end + 16))
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            // ZIP64: the real figures are in a record the locator before the end record points at.
            let locator = end - 20
            guard locator >= 0, reader.u32(locator) == zip64LocatorSignature,
                  let record = reader.offset(reader.u64(locator + 8)),
                  reader.has(record, 56), reader.u32(record) == zip64EndSignature,
                  let entries = reader.offset(reader.u64(record + 32)),
                  let size = reader.offset(reader.u64(record + 40)),
                  let offset = reader.offset(reader.u64(record + 48))
            else { throw .damaged("its ZIP64 directory is damaged") }
            (count, directorySize, directoryOffset) = (entries, size, offset)
        }
        guard count <= FormLimits.archiveEntries else {
            throw .tooLarge("it lists \(count) parts; a workbook has a few dozen, and at most \(FormLimits.archiveEntries) are read")
        }
        guard reader.has(directoryOffset, directorySize) else {
            throw .damaged("its directory lies outside the file (the file may be cut short)")
        }

        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var cursor = directoryOffset
        for _ in 0..<count {
            guard reader.has(cursor, 46), reader.u32(cursor) == directoryEntrySignature else {
                throw .damaged("its directory is damaged")
            }
            let nameLength = Int(reader.u16(cursor + 28))
            let extraLength = Int(reader.u16(cursor + 30))
            let commentLength = Int(reader.u16(cursor + 32))
            guard reader.has(cursor + 46, nameLength + extraLength + commentLength) else {
                throw .damaged("its directory is damaged")
            }
            var entry = Entry(
                name: reader.string(cursor + 46, nameLength),
                method: reader.u16(cursor + 10),
                flags: reader.u16(cursor + 8),
                crc32: reader.u32(cursor + 16),
                compressedSize: Int(reader.u32(cursor + 20)),
                uncompressedSize: Int(reader.u32(cursor + 24)),
                localHeaderOffset: Int(reader.u32(cursor + 42))
            )
            try readZip64Extra(reader, from: cursor + 46 + nameLength, length: extraLength, into: &entry)
            entries.append(entry)
            cursor += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }

    /// A ZIP64 entry's real sizes and offset, in the order the format gives
    /// them, each present only where the 32-bit field is all ones.
    private static func readZip64Extra(_ reader: ByteReader, from start: Int, length: Int, into entry: inout Entry) throws(Failure) {
        let marker = 0xFFFF_FFFF
        guard entry.uncompressedSize == marker || entry.compressedSize == marker || entry.localHeaderOffset == marker else {
            return
        }
        var cursor = start
        while cursor + 4 <= start + length {
            let id = reader.u16(cursor)
            let size = Int(reader.u16(cursor + 2))
            guard cursor + 4 + size <= start + length else { break }
            if id == 0x0001 {
                var field = cursor + 4
                func next() throws(Failure) -> Int {
                    guard field + 8 <= cursor + 4 + size, let value = reader.offset(reader.u64(field)) else {
                        throw .damaged("the directory entry of \(entry.name) is damaged")
                    }
                    field += 8
                    return value
                }
                if entry.uncompressedSize == marker { entry.uncompressedSize = try next() }
                if entry.compressedSize == marker { entry.compressedSize = try next() }
                if entry.localHeaderOffset == marker { entry.localHeaderOffset = try next() }
                return
            }
            cursor += 4 + size
        }
        throw .damaged("the directory entry of \(entry.name) is damaged")
    }

    // MARK: - A part

    private static func unpack(_ entry: Entry, from bytes: UnsafeRawBufferPointer, budget: Budget) throws(Failure) -> Data {
        let reader = ByteReader(bytes)
        let header = entry.localHeaderOffset
        guard reader.has(header, 30), reader.u32(header) == localHeaderSignature else {
            throw .damaged("\(entry.name) is damaged (the file may be cut short)")
        }
        guard entry.flags & 1 == 0 else { throw .damaged("\(entry.name) is encrypted") }
        let start = header + 30 + Int(reader.u16(header + 26)) + Int(reader.u16(header + 28))
        guard reader.has(start, entry.compressedSize) else {
            throw .damaged("\(entry.name) is cut short (the file may not have finished downloading)")
        }
        guard entry.uncompressedSize <= budget.bytes else { throw .tooLarge(budget.reason(entry.name)) }
        let input = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + entry.compressedSize)])
        let contents: Data
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.uncompressedSize else { throw .damaged("\(entry.name) is damaged") }
            contents = Data(input)
        case 8:
            contents = try inflate(input, expected: entry.uncompressedSize, budget: budget, name: entry.name)
        default:
            throw .damaged("\(entry.name) is packed with method \(entry.method), which workbooks do not use")
        }
        guard contents.count == entry.uncompressedSize, checksum(contents) == entry.crc32 else {
            throw .damaged("\(entry.name) is damaged (its checksum does not match)")
        }
        return contents
    }

    /// What a part may still unpack to, and which limit says so.
    private struct Budget {
        var bytes: Int
        var isWholeWorkbook: Bool

        func reason(_ name: String) -> String {
            isWholeWorkbook
                ? "the parts a form reads would unpack to more than \(FormLimits.workbookBytes >> 20) MB, far more than any form needs"
                : "\(name) would unpack to more than \(FormLimits.partBytes >> 20) MB, far more than any form needs"
        }
    }

    /// A raw deflate stream, unpacked into at most `budget` bytes.
    private static func inflate(_ input: UnsafeRawBufferPointer, expected: Int, budget: Budget, name: String) throws(Failure) -> Data {
        var stream = z_stream()
        guard czlib_inflate_init_raw(&stream) == Z_OK else { throw .damaged("\(name) cannot be unpacked") }
        defer { inflateEnd(&stream) }
        // One byte past the budget, so that a stream that would go on is seen to.
        let most = budget.bytes + 1
        var output = Data(count: min(max(expected, 4096), most))
        var produced = 0
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        while true {
            if produced == output.count {
                guard output.count < most else { throw .tooLarge(budget.reason(name)) }
                output.count = min(output.count * 2, most)
            }
            let room = output.count - produced
            let result = output.withUnsafeMutableBytes { buffer in
                stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self) + produced
                stream.avail_out = uInt(room)
                return CZlib.inflate(&stream, Z_NO_FLUSH)
            }
            produced += room - Int(stream.avail_out)
            switch result {
            case Z_STREAM_END:
                guard produced <= budget.bytes else { throw .tooLarge(budget.reason(name)) }
                output.count = produced
                return output
            case Z_OK, Z_BUF_ERROR:
                // Output full: make room and go on. Anything else: the input ran out
                // before the stream's end.
                guard stream.avail_out == 0 else {
                    throw .damaged("\(name) is cut short (the file may not have finished downloading)")
                }
            default:
                throw .damaged("\(name) is damaged")
            }
        }
    }

    private static func checksum(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { raw in
            var crc = crc32(0, nil, 0)
            var offset = 0
            // zlib takes 32-bit lengths.
            while offset < raw.count {
                let chunk = min(raw.count - offset, 1 << 30)
                crc = crc32(crc, raw.baseAddress!.advanced(by: offset).assumingMemoryBound(to: Bytef.self), uInt(chunk))
                offset += chunk
            }
            return UInt32(truncatingIfNeeded: crc)
        }
    }
}

/// Little-endian fields of a byte buffer, each read only inside it.
private struct ByteReader {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Whether `count` bytes from `offset` lie inside the buffer.
    func has(_ offset: Int, _ count: Int) -> Bool {
        offset >= 0 && count >= 0 && offset <= bytes.count && count <= bytes.count - offset
    }

    /// A 64-bit field as an offset or size, if it is one this buffer could hold.
    func offset(_ value: UInt64) -> Int? {
        value <= UInt64(bytes.count) ? Int(value) : nil
    }

    func u16(_ offset: Int) -> UInt16 {
        guard has(offset, 2) else { return 0 }
        return UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    func u32(_ offset: Int) -> UInt32 {
        guard has(offset, 4) else { return 0 }
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    func u64(_ offset: Int) -> UInt64 {
        guard has(offset, 8) else { return 0 }
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    func string(_ offset: Int, _ count: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]), as: UTF8.self)
    }
}
