/// What the app makes of values read from its settings, which a user, a
/// script or a damaged file may have set to anything the schema's types
/// allow: a window size a screen can show, and a short list of recent forms
/// that are real paths. Pure Swift, so that the settings fuzzer runs it too.
enum StoredSettings {
    /// The widths and heights a window is restored to: X11 itself stops at
    /// 32,767, and a larger request makes GTK allocate a surface that size.
    static let windowSizes = 200...16_384

    /// How many recent forms are remembered and offered.
    static let recentFormLimit = 10

    /// The longest path Linux opens (`PATH_MAX`).
    static let pathLimit = 4_096

    /// The longest metadata value a form is given (a user name, an e-mail
    /// address, a phone number).
    static let metadataLimit = 256

    /// A metadata value as forms get it: one line, trimmed, at most
    /// `metadataLimit` characters, whatever the settings hold.
    static func metadataValue(_ stored: String) -> String {
        let line = stored.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return String(line.trimmingCharacters(in: .whitespaces).prefix(metadataLimit))
    }

    /// Whether the stored connection security checks the server's
    /// certificate: anything but the exact choice `insecure` does. GLib's
    /// check of a key's choices is not to be relied on: it lets through
    /// `'in' + 70 × '?' + 'secure'` (found by the settings fuzzer).
    static func checksCertificate(_ stored: String) -> Bool {
        stored != "insecure"
    }

    /// The size to restore a window to, or `nil` to keep its own.
    static func windowSize(width: Int, height: Int) -> (width: Int, height: Int)? {
        guard width > 0, height > 0 else { return nil }
        func clamped(_ value: Int) -> Int { min(max(value, windowSizes.lowerBound), windowSizes.upperBound) }
        return (clamped(width), clamped(height))
    }

    /// The recent forms worth offering, newest first: absolute paths Linux
    /// can open, each once, at most `recentFormLimit` (a list of a million
    /// would be a menu of a million).
    static func recentForms(_ stored: [String]) -> [String] {
        var kept: [String] = []
        for path in stored where path.hasPrefix("/") && path.utf8.count <= pathLimit && !path.utf8.contains(0) {
            if !kept.contains(path) { kept.append(path) }
            if kept.count == recentFormLimit { break }
        }
        return kept
    }
}
