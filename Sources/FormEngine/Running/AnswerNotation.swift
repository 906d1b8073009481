public import Foundation

/// How an answer reads where the form shows it within text: a `${}` in a
/// label, hint or message, and the summary. A number takes the reader's
/// decimal mark (`12,5`), grouped only where its question asks
/// (`thousands-sep`), since a year or an id must not read `2.024`; a day
/// reads as the reader's locale writes it (`31.01.2024`). `.xforms` shows
/// answers as stored. A calculation's value is text the form made, shown as
/// it is, as ODK Collect shows it.
public struct AnswerNotation: Sendable {
    /// The marks numbers are shown with.
    public var separators: NumberSeparators
    /// The locale days are written in; `nil` writes them as stored (`2024-01-31`).
    public let dateLocale: Locale?
    /// Made once: the summary is rebuilt at every change, and making an ICU
    /// formatter costs more than formatting a day with it.
    private let dayFormatter: DateFormatter?

    /// Answers as XForms stores them.
    public static let xforms = AnswerNotation(separators: .posix, dateLocale: nil)

    public init(separators: NumberSeparators, dateLocale: Locale?) {
        self.separators = separators
        self.dateLocale = dateLocale
        dayFormatter = dateLocale.map { locale in
            let formatter = DateFormatter()
            formatter.locale = locale
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateStyle = .medium
            formatter.timeStyle = .none
            return formatter
        }
    }

    /// `answer` to `question` as a person reads it.
    public func shown(_ answer: String, for question: Question) -> String {
        guard !answer.isEmpty else { return answer }
        switch question.type {
        case .integer, .decimal, .range:
            if question.hasAppearance("thousands-sep") { return separators.grouped(answer) }
            return Self.isDecimal(answer) ? separators.withDecimalMark(answer) : answer
        case .date where question.datePrecision == .day:
            return day(answer) ?? answer
        case .dateTime:
            // `2024-01-31 12:30`, the day then written as the locale writes it.
            let stored = TimeAnswer.shown(answer, type: .dateTime)
            guard let space = stored.firstIndex(of: " "), let shownDay = day(String(stored[..<space])) else { return stored }
            return shownDay + stored[space...]
        case .time:
            return TimeAnswer.shown(answer, type: .time)
        default:
            return answer
        }
    }

    private func day(_ answer: String) -> String? {
        guard let dayFormatter, let parsed = ParsedDateTime(answer), let date = parsed.date,
              date.isValid, (1...9999).contains(date.year) else { return nil }
        return dayFormatter.string(from: Date(timeIntervalSince1970: Double(date.days) * 86_400))
    }

    /// Whether `answer` is a number with a fraction in XForms notation (`-12.5`).
    private static func isDecimal(_ answer: String) -> Bool {
        let digits = answer.drop { $0 == "-" || $0 == "+" }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts.allSatisfy { $0.allSatisfy(\.isASCIIDigit) }
    }
}
