import CTwoWayBindingGtkShims

// GLib hands string lists over as NULL-terminated C arrays (strv, bytestring
// arrays) and takes them the same way; the app converts here, one way for all.

/// The strings of a NULL-terminated C array.
func stringArray(fromNullTerminated array: UnsafeRawPointer) -> [String] {
    var result: [String] = []
    var cursor = array.assumingMemoryBound(to: UnsafePointer<CChar>?.self)
    while let item = cursor.pointee {
        result.append(String(cString: item))
        cursor += 1
    }
    return result
}

/// Calls `body` with `strings` as a NULL-terminated C array, valid during the call.
func withNullTerminatedCStrings<Result>(
    _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
) -> Result {
    var pointers = strings.map { strdup($0) }
    defer { pointers.forEach { free($0) } }
    pointers.append(nil)
    return pointers.withUnsafeBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count, body)
    }
}
