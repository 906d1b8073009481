// NB: Foundation's `trimmingCharacters(in:)`, `contains(_:)` and
// `replacingOccurrences(of:with:)` go through NSString on Linux; on a
// 5,000-question form they took two fifths of the time to read it. Cells are
// cleaned with these scans of the UTF-8 or scalars instead.

extension String {
    /// The text without white space at either end (as Python's `strip()`).
    var trimmed: String {
        // Most cells start and end with a plain ASCII character that is not a space.
        if let first = utf8.first, let last = utf8.last, first < 0x80, last < 0x80,
           first > 0x20, last > 0x20 { return self }
        let scalars = unicodeScalars
        guard let first = scalars.first, let last = scalars.last,
              first.properties.isWhitespace || last.properties.isWhitespace else { return self }
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[start...end])
    }

    /// Whether every byte of the text is ASCII, read from contiguous storage.
    var isASCII: Bool {
        var text = self
        return text.withUTF8 { bytes in
            var combined: UInt8 = 0
            for byte in bytes { combined |= byte }
            return combined < 0x80
        }
    }

    /// Whether `needle` occurs in the text, byte for byte.
    func includes(_ needle: String) -> Bool {
        var haystack = self, pattern = needle
        haystack.makeContiguousUTF8()
        pattern.makeContiguousUTF8()
        return haystack.utf8.withContiguousStorageIfAvailable { text in
            pattern.utf8.withContiguousStorageIfAvailable { word in
                guard let first = word.first else { return true }
                guard text.count >= word.count else { return false }
                outer: for start in 0...(text.count - word.count) where text[start] == first {
                    for offset in 1..<word.count where text[start + offset] != word[offset] { continue outer }
                    return true
                }
                return false
            } ?? false
        } ?? false
    }

    /// The text with every `scalar` replaced by `replacement`.
    func replacingScalar(_ scalar: Unicode.Scalar, with replacement: Unicode.Scalar) -> String {
        // Pure ASCII text holds no other scalar; most cells are.
        if scalar.value >= 0x80, isASCII { return self }
        guard unicodeScalars.contains(scalar) else { return self }
        var result = String.UnicodeScalarView()
        for each in unicodeScalars { result.append(each == scalar ? replacement : each) }
        return String(result)
    }
}
