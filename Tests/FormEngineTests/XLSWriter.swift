import Foundation

/// Writes the smallest legacy Excel workbooks (`.xls`: BIFF8 records in a
/// compound file) the reader's tests need, record by record, so that each
/// test says exactly which bytes it reads, damaged ones included.
struct XLSWriter {
    /// One sheet's cells, as BIFF records of its own.
    struct SheetRecords {
        var name: String
        /// 0 a worksheet, 2 a chart.
        var kind: UInt8 = 0
        var records: [(type: Int, body: [UInt8])] = []
    }

    var sheets: [SheetRecords] = []
    /// Records of the workbook's globals before its sheet list (formats,
    /// styles, the date mode).
    var globals: [(type: Int, body: [UInt8])] = []
    /// The shared strings, as the SST record and its CONTINUE records'
    /// bodies (a test splits a string where it wants).
    var sharedStringParts: [[UInt8]] = []
    var version: UInt16 = 0x0600

    /// The workbook stream.
    func stream() -> [UInt8] {
        func record(_ type: Int, _ body: [UInt8]) -> [UInt8] {
            Self.u16(type) + Self.u16(body.count) + body
        }
        let bof = Self.u16(Int(version)) + Self.u16(0x0005) + [UInt8](repeating: 0, count: 12)
        var head = record(0x0809, bof)
        for (type, body) in globals { head += record(type, body) }
        // The sheet list's offsets are known once its length is.
        // Excel 5.0/95's entry has no flags byte before the name.
        let legacy = version == 0x0500
        let listLength = sheets.reduce(0) { $0 + 4 + (legacy ? 7 : 8) + $1.name.utf8.count }
        var tail: [UInt8] = []
        for (index, part) in sharedStringParts.enumerated() { tail += record(index == 0 ? 0x00FC : 0x003C, part) }
        tail += record(0x000A, [])
        var offset = head.count + listLength + tail.count
        var list: [UInt8] = []
        var bodies: [UInt8] = []
        for sheet in sheets {
            let name = Array(sheet.name.utf8)
            list += record(0x0085, Self.u32(offset) + [0, sheet.kind, UInt8(name.count)] + (legacy ? [] : [0]) + name)
            var substream = record(0x0809, Self.u16(Int(version)) + Self.u16(0x0010) + [UInt8](repeating: 0, count: 12))
            for (type, body) in sheet.records { substream += record(type, body) }
            substream += record(0x000A, [])
            bodies += substream
            offset += substream.count
        }
        return head + list + tail + bodies
    }

    /// The workbook in its compound file: in the file's own sectors when
    /// the stream is 4,096 bytes or more, else in 64-byte sectors of the
    /// root's stream, as Excel stores a small one.
    func file(streamName: String = "Workbook") -> Data {
        Data(Self.compoundFile(stream(), name: streamName))
    }

    static func compoundFile(_ stream: [UInt8], name: String = "Workbook") -> [UInt8] {
        let end: UInt32 = 0xFFFF_FFFE, free: UInt32 = 0xFFFF_FFFF
        let small = stream.count < 4096
        var fat = [UInt32](repeating: free, count: 128)
        fat[0] = 0xFFFF_FFFD  // the FAT's own sector
        fat[1] = end  // the directory
        var sectors: [[UInt8]] = []
        var rootStart = end, rootSize = 0, streamStart: UInt32 = 2
        var miniFATSector = end
        if small {
            let miniCount = (stream.count + 63) / 64
            var miniFAT = [UInt32](repeating: free, count: 128)
            for index in 0..<miniCount { miniFAT[index] = index + 1 < miniCount ? UInt32(index + 1) : end }
            fat[2] = end
            miniFATSector = 2
            let mini = stream + [UInt8](repeating: 0, count: miniCount * 64 - stream.count)
            let rootSectors = (mini.count + 511) / 512
            for index in 0..<rootSectors { fat[3 + index] = index + 1 < rootSectors ? UInt32(4 + index) : end }
            rootStart = 3
            rootSize = mini.count
            streamStart = 0
            sectors.append(miniFAT.flatMap(u32))
            sectors += chunks(mini)
        } else {
            let count = (stream.count + 511) / 512
            for index in 0..<count { fat[2 + index] = index + 1 < count ? UInt32(3 + index) : end }
            sectors += chunks(stream)
        }
        func entry(_ name: String, type: UInt8, child: UInt32, start: UInt32, size: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: 128)
            let units = Array(name.utf16) + [0]
            for (index, unit) in units.enumerated() {
                bytes[2 * index] = UInt8(unit & 0xFF)
                bytes[2 * index + 1] = UInt8(unit >> 8)
            }
            bytes[64] = UInt8(units.count * 2)
            bytes[66] = type
            bytes.replaceSubrange(68..<80, with: u32(Int(free)) + u32(Int(free)) + u32(Int(child)))
            bytes.replaceSubrange(116..<124, with: u32(Int(start)) + u32(size))
            return bytes
        }
        let directory = entry("Root Entry", type: 5, child: 1, start: rootStart, size: rootSize)
            + entry(name, type: 2, child: free, start: streamStart, size: stream.count)
            + [UInt8](repeating: 0, count: 256)
        var header = [UInt8](repeating: 0, count: 512)
        header.replaceSubrange(0..<8, with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1])
        header.replaceSubrange(0x18..<0x20, with: u16(0x3E) + u16(3) + u16(0xFFFE) + u16(9))
        header.replaceSubrange(0x20..<0x22, with: u16(6))
        header.replaceSubrange(0x2C..<0x4C, with: u32(1) + u32(1) + u32(0) + u32(4096) + u32(Int(miniFATSector))
                               + u32(small ? 1 : 0) + u32(Int(end)) + u32(0))
        header.replaceSubrange(0x4C..<0x50, with: u32(0))
        for index in 1..<109 { header.replaceSubrange((0x4C + 4 * index)..<(0x50 + 4 * index), with: u32(Int(free))) }
        return header + fat.flatMap(u32) + directory + sectors.flatMap { $0 }
    }

    private static func chunks(_ bytes: [UInt8]) -> [[UInt8]] {
        stride(from: 0, to: bytes.count, by: 512).map { start in
            let chunk = Array(bytes[start..<min(start + 512, bytes.count)])
            return chunk + [UInt8](repeating: 0, count: 512 - chunk.count)
        }
    }

    static func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16 & 0xFFFF) }
    static func u32(_ value: UInt32) -> [UInt8] { u32(Int(value)) }

    // MARK: - Records

    /// A cell's row, column and style, as every cell record begins.
    static func cell(_ row: Int, _ column: Int, style: Int = 0) -> [UInt8] { u16(row) + u16(column) + u16(style) }

    static func labelSST(_ row: Int, _ column: Int, _ index: Int) -> (type: Int, body: [UInt8]) {
        (0x00FD, cell(row, column) + u32(index))
    }

    /// A Label record's string, one byte per character (Latin-1) or two.
    static func label(_ row: Int, _ column: Int, _ text: String, wide: Bool = false) -> (type: Int, body: [UInt8]) {
        (0x0204, cell(row, column) + unicodeString(text, wide: wide))
    }

    static func unicodeString(_ text: String, wide: Bool) -> [UInt8] {
        let units = Array(text.utf16)
        return u16(units.count) + [wide ? 1 : 0] + characters(units, wide: wide)
    }

    static func characters(_ units: [UInt16], wide: Bool) -> [UInt8] {
        wide ? units.flatMap { u16(Int($0)) } : units.map { UInt8($0 & 0xFF) }
    }

    static func number(_ row: Int, _ column: Int, _ value: Double, style: Int = 0) -> (type: Int, body: [UInt8]) {
        (0x0203, cell(row, column, style: style) + double(value))
    }

    static func double(_ value: Double) -> [UInt8] {
        (0..<8).map { UInt8(value.bitPattern >> (8 * UInt64($0)) & 0xFF) }
    }
}
