import Foundation

/// What the command line prints. Messages carry text from form files and
/// servers (a cell, a form id, a server's error), so every line is written
/// with its control characters escaped: a form cannot clear the screen, move
/// the cursor or write the clipboard (OSC 52) through a problem message.
enum Terminal {
    /// A line on standard output.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((escaped(line) + "\n").utf8))
    }

    /// `survey-form: LINE` on standard error, and any further lines below it.
    static func error(_ lines: [String]) {
        guard let first = lines.first else { return }
        let text = ([AppInfo.executable + ": " + first] + lines.dropFirst()).map(escaped).joined(separator: "\n")
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func error(_ message: String) {
        error([message])
    }

    /// `text` with C0 and C1 controls, DEL and the bidi controls shown as
    /// escapes (`\x1B`, `\u{202E}`); line breaks too, so one line stays one.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if !needsEscape(scalar) {
                result.unicodeScalars.append(scalar)
            } else if scalar.value <= 0xFF {
                result += String(format: "\\x%02X", scalar.value)
            } else {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
