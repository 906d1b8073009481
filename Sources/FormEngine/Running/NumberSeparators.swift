public import Foundation

/// The marks a number is written with for a reader: the decimal mark and
/// the mark between groups of thousands, as a locale writes them (`1,234.5`,
/// `1.234,5`). Answers are stored in XForms notation (`1234.5`) whatever a
/// control shows.
public struct NumberSeparators: Sendable, Equatable {
    public var decimal: Character
    public var grouping: Character

    /// The separators XForms notation reads next to: a point, and commas between thousands.
    public static let posix = NumberSeparators(decimal: ".", grouping: ",")

    public init(decimal: Character, grouping: Character) {
        self.decimal = decimal
        // A locale that groups with its decimal mark cannot be read back.
        self.grouping = grouping == decimal ? (decimal == "," ? "." : ",") : grouping
    }

    /// `locale`'s separators; a locale that has none takes the POSIX ones.
    public init(locale: Locale) {
        self.init(
            decimal: locale.decimalSeparator?.first ?? ".",
            grouping: locale.groupingSeparator?.first ?? ","
        )
    }

    /// `answer` (XForms notation) with its thousands grouped and this
    /// decimal mark; anything that is not such a number is shown as stored.
    public func grouped(_ answer: String) -> String {
        var digits = Substring(answer)
        var sign = ""
        if digits.first == "-" || digits.first == "+" {
            sign = String(digits.removeFirst())
        }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit),
              parts.count == 1 || parts[1].allSatisfy(\.isASCIIDigit) else { return answer }
        var groupedWhole = ""
        for (index, digit) in whole.enumerated() {
            if index > 0, (whole.count - index) % 3 == 0 { groupedWhole.append(grouping) }
            groupedWhole.append(digit)
        }
        let fraction = parts.count == 2 ? String(decimal) + parts[1] : ""
        return sign + groupedWhole + fraction
    }

    /// `text` written with a point for its decimal mark (`12.5`, `111.32 km`)
    /// with this decimal mark instead (`12,5`); nothing else changes.
    public func withDecimalMark(_ text: String) -> String {
        decimal == "." ? text : String(text.map { $0 == "." ? decimal : $0 })
    }

    /// Typed `text` in XForms notation: grouping marks (and spaces, which
    /// some locales group with) dropped, this decimal mark made a point.
    public func ungrouped(_ text: String) -> String {
        var result = ""
        for character in text {
            if character == grouping || character.isWhitespace || character == "\u{2009}" || character == "\u{202F}" { continue }
            result.append(character == decimal ? "." : character)
        }
        return result
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
