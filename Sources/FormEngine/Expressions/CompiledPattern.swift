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
    func matches(_ string: String) -> Bool {
        regularExpression.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil
    }
}
