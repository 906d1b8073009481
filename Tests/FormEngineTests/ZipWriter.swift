import CZlib
import Foundation

/// Writes zip archives for the tests, honest or not: a part's bytes can be
/// deflated, cut short, or described with a size it does not have, so that
/// hostile workbooks are made as the tests run rather than stored.
struct ZipWriter {
    struct Part {
        var name: String
        var contents: Data
        var deflated = true
        /// The size the directory claims, when it should lie.
        var claimedSize: Int?
        /// Keep only this many bytes of the packed stream, when it should be cut.
        var packedPrefix: Int?
    }

    var parts: [Part] = []

    mutating func add(_ name: String, _ text: String, deflated: Bool = true) {
        parts.append(Part(name: name, contents: Data(text.utf8), deflated: deflated))
    }

    /// The archive's bytes.
    func data() -> Data {
        var output = Data()
        var directory = Data()
        for part in parts {
            var packed = part.deflated ? Self.deflate(part.contents) : part.contents
            if let prefix = part.packedPrefix { packed = packed.prefix(prefix) }
            let crc = Self.crc32(part.contents)
            let size = part.claimedSize ?? part.contents.count
            let name = Data(part.name.utf8)
            let offset = output.count
            // The fields both headers share: flags, method, time, date, checksum, sizes, name length.
            func shared(_ data: inout Data) {
                data.append(le16: 0)
                data.append(le16: part.deflated ? 8 : 0)
                data.append(le32: 0)
                data.append(le32: crc)
                data.append(le32: UInt32(packed.count))
                data.append(le32: UInt32(size))
                data.append(le16: UInt16(name.count))
            }
            output.append(le32: 0x0403_4B50)
            output.append(le16: 20)
            shared(&output)
            output.append(le16: 0)
            output.append(name)
            output.append(packed)

            directory.append(le32: 0x0201_4B50)
            directory.append(le16: 20)
            directory.append(le16: 20)
            shared(&directory)
            // Extra and comment lengths, disk, attributes, then where the part starts.
            for _ in 0..<4 { directory.append(le16: 0) }
            directory.append(le32: 0)
            directory.append(le32: UInt32(offset))
            directory.append(name)
        }
        let directoryOffset = output.count
        output.append(directory)
        output.append(le32: 0x0605_4B50)
        output.append(le16: 0)
        output.append(le16: 0)
        output.append(le16: UInt16(parts.count))
        output.append(le16: UInt16(parts.count))
        output.append(le32: UInt32(directory.count))
        output.append(le32: UInt32(directoryOffset))
        output.append(le16: 0)
        return output
    }

    static func deflate(_ data: Data) -> Data {
        var stream = z_stream()
        precondition(czlib_deflate_init_raw(&stream, 6) == Z_OK)
        defer { deflateEnd(&stream) }
        var output = Data(count: Int(deflateBound(&stream, uLong(data.count))))
        var input = data
        let produced = input.withUnsafeMutableBytes { inputBytes in
            output.withUnsafeMutableBytes { outputBytes in
                stream.next_in = inputBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = uInt(inputBytes.count)
                stream.next_out = outputBytes.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(outputBytes.count)
                precondition(CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END)
                return outputBytes.count - Int(stream.avail_out)
            }
        }
        return output.prefix(produced)
    }

    static func crc32(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { raw in
            UInt32(CZlib.crc32(0, raw.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(raw.count)))
        }
    }
}

extension Data {
    mutating func append(le16 value: UInt16) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    mutating func append(le32 value: UInt32) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
