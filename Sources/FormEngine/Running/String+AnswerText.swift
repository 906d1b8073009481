extension String {
    /// The text without C0 and C1 control characters (DEL included) and
    /// without the bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069),
    /// which let a stored answer run terminal escapes or show itself reversed
    /// when exported or listed. Letters, digits, punctuation and emoji stay;
    /// with `keepingLineBreaks`, so do tabs, line feeds and carriage returns.
    public func removingControlCharacters(keepingLineBreaks: Bool) -> String {
        func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: !keepingLineBreaks
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
        // Most answers are printable ASCII: one pass over the bytes says so.
        var text = self
        if text.withUTF8({ $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }) { return self }
        guard unicodeScalars.contains(where: isRemoved) else { return self }
        var kept = String.UnicodeScalarView()
        for scalar in unicodeScalars where !isRemoved(scalar) { kept.append(scalar) }
        return String(kept)
    }
}
