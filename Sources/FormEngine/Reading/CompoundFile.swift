import Foundation

/// Reads one stream out of a Compound File Binary container ([MS-CFB]), the
/// file system inside a legacy Excel workbook (`.xls`).
///
/// Nothing in the file is trusted: every sector number is checked against
/// the file's size, every chain is followed at most as many steps as the
/// file has sectors (a loop ends there), and a stream is at most
/// `FormLimits.workbookBytes`.
struct CompoundFile {
    enum Failure: Error, Equatable {
        /// Not a compound file, or one whose structures contradict themselves.
        case damaged(String)
        /// Larger than a form's workbook may be.
        case tooLarge(String)
    }

    private let data: [UInt8]
    private let sectorShift: Int
    private let fat: [UInt32]
    private let miniFAT: [UInt32]
    private let miniCutoff: Int
    private let entries: [Entry]

    private struct Entry {
        var name: String
        var type: UInt8
        var start: UInt32
        var size: Int
    }

    private static let endOfChain: UInt32 = 0xFFFF_FFFE
    private static let signature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    /// Whether `data` starts as a compound file does.
    static func isCompoundFile(_ data: Data) -> Bool {
        data.count >= 8 && Array(data.prefix(8)) == signature
    }

    init(_ data: Data) throws(Failure) {
        self.data = [UInt8](data)
        guard self.data.count >= 512, Array(self.data.prefix(8)) == Self.signature else {
            throw .damaged("it is not a compound file (the container of an Excel 97–2003 workbook)")
        }
        let header = self.data
        func u16(_ offset: Int) -> Int { Int(header[offset]) | Int(header[offset + 1]) << 8 }
        func u32(_ offset: Int) -> UInt32 {
            UInt32(header[offset]) | UInt32(header[offset + 1]) << 8 | UInt32(header[offset + 2]) << 16 | UInt32(header[offset + 3]) << 24
        }
        sectorShift = u16(0x1E)
        guard sectorShift == 9 || sectorShift == 12, u16(0x20) == 6 else {
            throw .damaged("its sector sizes are not a compound file's")
        }
        miniCutoff = Int(u32(0x38))
        let sectorSize = 1 << sectorShift
        // Sectors past the file's end are refused as each is read.
        let sectorCount = max(0, (self.data.count - sectorSize) >> sectorShift) + 1
        let perSector = sectorSize / 4

        // The FAT's own sectors: 109 in the header, the rest in DIFAT sectors.
        var fatSectors: [UInt32] = (0..<109).map { u32(0x4C + 4 * $0) }
        var difat = u32(0x44)
        var difatSteps = 0
        while difat < Self.endOfChain {
            difatSteps += 1
            guard difatSteps <= sectorCount else { throw .damaged("its sector allocation table's list loops") }
            let sector = try Self.sector(difat, in: self.data, shift: sectorShift)
            for index in 0..<(perSector - 1) { fatSectors.append(Self.u32(sector, 4 * index)) }
            difat = Self.u32(sector, 4 * (perSector - 1))
        }
        let fatCount = Int(u32(0x2C))
        guard fatCount <= sectorCount else { throw .damaged("it lists more allocation sectors than it has") }
        var fat: [UInt32] = []
        fat.reserveCapacity(fatCount * perSector)
        for number in fatSectors.prefix(fatCount) {
            let sector = try Self.sector(number, in: self.data, shift: sectorShift)
            for index in 0..<perSector { fat.append(Self.u32(sector, 4 * index)) }
        }
        self.fat = fat

        let directory = try Self.chain(u32(0x30), fat: fat, data: self.data, shift: sectorShift, limit: FormLimits.workbookBytes)
        var entries: [Entry] = []
        var offset = 0
        while offset + 128 <= directory.count {
            let nameBytes = min(64, max(0, Int(directory[offset + 64]) | Int(directory[offset + 65]) << 8) - 2)
            var units: [UInt16] = []
            for index in stride(from: 0, to: max(0, nameBytes) & ~1, by: 2) {
                units.append(UInt16(directory[offset + index]) | UInt16(directory[offset + index + 1]) << 8)
            }
            let size = Int(Self.u32(directory, offset + 120)) | (sectorShift == 12 ? Int(Self.u32(directory, offset + 124)) << 32 : 0)
            entries.append(Entry(name: String(decoding: units, as: UTF16.self), type: directory[offset + 66],
                                 start: Self.u32(directory, offset + 116), size: size))
            offset += 128
        }
        guard let root = entries.first, root.type == 5 else { throw .damaged("its directory has no root entry") }
        self.entries = entries

        let miniFATBytes = try Self.chain(u32(0x3C), fat: fat, data: self.data, shift: sectorShift, limit: FormLimits.workbookBytes)
        miniFAT = stride(from: 0, to: miniFATBytes.count & ~3, by: 4).map { Self.u32(miniFATBytes, $0) }
    }

    /// The bytes of the first stream named any of `names` (compared
    /// regardless of case, as the format does), or nil when there is none.
    func stream(named names: [String]) throws(Failure) -> [UInt8]? {
        let wanted = Set(names.map { $0.lowercased() })
        guard let entry = entries.first(where: { $0.type == 2 && wanted.contains($0.name.lowercased()) }) else { return nil }
        guard entry.size <= FormLimits.workbookBytes else {
            throw .tooLarge("its workbook stream is \(entry.size >> 20) MB; a form's is at most \(FormLimits.workbookBytes >> 20) MB")
        }
        if entry.size < miniCutoff {
            // Small streams live in 64-byte sectors of the root's own stream.
            let root = entries[0]
            let mini = try Self.chain(root.start, fat: fat, data: data, shift: sectorShift, limit: FormLimits.workbookBytes)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(entry.size)
            var sector = entry.start
            var visited = [Bool](repeating: false, count: miniFAT.count)
            while bytes.count < entry.size {
                guard sector < Self.endOfChain, Int(sector) < miniFAT.count else {
                    throw .damaged("a small stream's chain ends before the stream does")
                }
                guard !visited[Int(sector)] else { throw .damaged("a chain of sectors loops") }
                visited[Int(sector)] = true
                let start = Int(sector) << 6
                guard start + 64 <= mini.count else { throw .damaged("a small stream lies beyond its container") }
                bytes.append(contentsOf: mini[start..<(start + 64)])
                sector = miniFAT[Int(sector)]
            }
            return Array(bytes.prefix(entry.size))
        }
        let bytes = try Self.chain(entry.start, fat: fat, data: data, shift: sectorShift, limit: entry.size)
        guard bytes.count >= entry.size else { throw .damaged("the workbook stream's chain ends before the stream does") }
        return Array(bytes.prefix(entry.size))
    }

    /// The sectors of a chain, joined: at most `limit` bytes' worth (and
    /// the sector holding the last of them); a sector met twice is a loop.
    private static func chain(_ first: UInt32, fat: [UInt32], data: [UInt8], shift: Int, limit: Int) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var sector = first
        var visited = [Bool](repeating: false, count: fat.count)
        while sector < endOfChain, bytes.count < limit {
            bytes.append(contentsOf: try Self.sector(sector, in: data, shift: shift))
            guard Int(sector) < fat.count else { throw .damaged("a chain of sectors leaves the allocation table") }
            guard !visited[Int(sector)] else { throw .damaged("a chain of sectors loops") }
            visited[Int(sector)] = true
            sector = fat[Int(sector)]
        }
        return bytes
    }

    private static func sector(_ number: UInt32, in data: [UInt8], shift: Int) throws(Failure) -> ArraySlice<UInt8> {
        let start = (Int(number) + 1) << shift
        guard number < endOfChain - 5, start + (1 << shift) <= data.count else {
            throw .damaged("a sector lies beyond the file's end (the file may be cut short)")
        }
        return data[start..<(start + (1 << shift))]
    }

    private static func u32<C: RandomAccessCollection>(_ bytes: C, _ offset: Int) -> UInt32 where C.Element == UInt8, C.Index == Int {
        let base = bytes.startIndex + offset
        return UInt32(bytes[base]) | UInt32(bytes[base + 1]) << 8 | UInt32(bytes[base + 2]) << 16 | UInt32(bytes[base + 3]) << 24
    }
}
