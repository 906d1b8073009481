import Foundation

/// A compiled regular expression that may be shared between threads.
struct CompiledPattern: @unchecked Sendable {
    // NB: NSRegularExpression is immutable once made and documented as safe to use from any
    // thread, but swift-corelibs-foundation does not declare it Sendable.
    let regularExpression: NSRegularExpression

    init?(_ pattern: String) {
        guard let regularExpression = try? NSRegularExpression(pattern: pattern) else { return nil }
        self.regularExpression = regularExpression
    }

    /// ODK's `regex()`: whether the pattern matches anywhere in `string` (as JavaScript's `test`).
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
