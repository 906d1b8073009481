import Glibc

/// Calls `body` with `strings` as a NULL-terminated C array (GLib's strv),
/// valid during the call.
package func withNullTerminatedCStrings<Result>(
    _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
) -> Result {
    var copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    copies.append(nil)
    return copies.withUnsafeBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count, body)
    }
}

/// The strings of a NULL-terminated C array (a strv, a bytestring array).
package func stringArray(fromNullTerminated array: UnsafeRawPointer) -> [String] {
    var result: [String] = []
    var cursor = array.assumingMemoryBound(to: UnsafePointer<CChar>?.self)
    while let item = cursor.pointee {
        result.append(String(cString: item))
        cursor += 1
    }
    return result
}
