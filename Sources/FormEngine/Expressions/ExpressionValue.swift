public import Foundation

/// The value of a form expression: one of XPath 1.0's four types, plus ODK's dates.
public enum ExpressionValue: Sendable, Equatable {
    /// Text, as literals, `concat()` and the like give.
    case string(String)
    /// An IEEE 754 double, NaN for "no number".
    case number(Double)
    /// What comparisons, `and`, `or` and `not()` give.
    case boolean(Bool)
    /// A node-set, as the string values of its nodes in document order.
    case nodes([String])
    /// A calendar day, as days since 1970-01-01 (`today()`, `date(...)`); shown as `YYYY-MM-DD`.
    case date(Int)
    /// A moment and the UTC offset, in seconds, it is shown with (`now()`, `date-time(...)`).
    case dateTime(Date, utcOffset: Int)

    /// XPath's `string()`: numbers without a needless `.0` or exponent, dates in ISO 8601.
    public var stringValue: String {
        switch self {
        case .string(let string): string
        case .number(let number): ExpressionValue.format(number)
        case .boolean(let boolean): boolean ? "true" : "false"
        case .nodes(let nodes): nodes.first ?? ""
        case .date(let days): CivilDate(days: days).isoString
        case .dateTime(let date, let offset): ExpressionValue.isoString(date, utcOffset: offset)
        }
    }

    /// XPath's `number()`, extended by ODK: a date or date-time string becomes days since
    /// 1970-01-01 (a date-time without an offset is read as UTC here).
    public var numberValue: Double { number(timeZone: .gmt) }

    /// XPath's `boolean()`; a single node counts by its value, as ODK Collect reads it.
    public var booleanValue: Bool {
        switch self {
        case .string(let string): !string.isEmpty
        case .number(let number): number != 0 && !number.isNaN
        case .boolean(let boolean): boolean
        // NB: XPath makes every non-empty node-set true; ODK Collect unpacks a single node to
        // its string, so an unanswered question is false. Forms are written against Collect.
        case .nodes(let nodes): nodes.count == 1 ? !nodes[0].isEmpty : !nodes.isEmpty
        case .date, .dateTime: true
        }
    }

    /// `numberValue`, reading date-times without an offset in `timeZone`.
    func number(timeZone: TimeZone) -> Double {
        switch self {
        case .string(let string): ExpressionValue.number(from: string, timeZone: timeZone)
        case .number(let number): number
        case .boolean(let boolean): boolean ? 1 : 0
        case .nodes(let nodes): ExpressionValue.number(from: nodes.first ?? "", timeZone: timeZone)
        case .date(let days): Double(days)
        case .dateTime(let date, _): date.timeIntervalSince1970 / secondsPerDay
        }
    }

    /// The string values a node-set comparison looks at, or nil for a value that is no node-set.
    var nodeStrings: [String]? {
        if case .nodes(let nodes) = self { nodes } else { nil }
    }
}

let secondsPerDay: Double = 86_400
