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

    /// A line from standard input; at a terminal, after `prompt` on standard
    /// error and without echoing what is typed.
    static func readPassword(prompt: String) -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return readLine(strippingNewline: true) }
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        let hidden = tcgetattr(STDIN_FILENO, &saved) == 0
        if hidden {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        defer {
            if hidden { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }

    /// Runs `work` off the main thread and waits: these commands run before
    /// any main loop, with nothing else for the main thread to do. `work`
    /// must not need the main actor, which is waiting here.
    static func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task.detached {
            do {
                box.result = .success(try await work())
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return box.result ?? .failure(CancellationError())
    }

    private final class ResultBox<T>: @unchecked Sendable {
        // Written by the task before it signals, read after the wait.
        var result: Result<T, any Error>?
    }

}
