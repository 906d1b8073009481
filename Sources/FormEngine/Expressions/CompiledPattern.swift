import Foundation

/// A compiled regular expression that may be shared between threads.
struct CompiledPattern: @unchecked Sendable {
    // NB: NSRegularExpression is immutable once made and documented as safe to use from any
    // thread, but swift-corelibs-foundation does not declare it Sendable.
    let regularExpression: NSRegularExpression

    /// `pattern` to be matched by a whole text, or `nil` when it is not a valid pattern.
    init?(_ pattern: String) {
        // Checked alone first: a trailing backslash would otherwise escape the closing group.
        guard (try? NSRegularExpression(pattern: pattern)) != nil,
              let regularExpression = try? NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z")
        else { return nil }
        self.regularExpression = regularExpression
    }

    /// ODK's `regex()` as JavaRosa runs it (Java's `Pattern.matches`): whether the pattern
    /// matches the whole of `string`, not a part (Enketo's JavaScript `test` would).
    /// A match still backtracking after `FormLimits.regexProgressReports` is abandoned: no match.
    func matches(_ string: String) -> Bool {
        var found = false
        var reports = 0
        let range = NSRange(string.startIndex..., in: string)
        regularExpression.enumerateMatches(in: string, options: [.reportProgress], range: range) { result, _, stop in
            if result != nil {
                found = true
                stop.pointee = true
                return
            }
            reports += 1
            if reports >= FormLimits.regexProgressReports { stop.pointee = true }
        }
        return found
    }
}
