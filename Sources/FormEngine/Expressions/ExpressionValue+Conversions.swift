import Foundation

extension ExpressionValue {
    var isBoolean: Bool {
        if case .boolean = self { true } else { false }
    }

    var isNumeric: Bool {
        switch self {
        case .number, .date, .dateTime: true
        default: false
        }
    }

    /// XPath 1.0 §4.2 `string(number)`: no exponent, no trailing `.0`, `-0` as `0`.
    static func format(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == 0 { return "0" }
        // Every integer below 2^53 is exact, and Int64 prints it fastest.
        if abs(number) < 9_007_199_254_740_992, number == number.rounded(.towardZero) {
            return String(Int64(number))
        }
        return DecimalDigits(number).plainString
    }

    /// XPath 1.0 §4.4 `number(string)`, then ODK's reading of date and date-time strings as days
    /// since 1970-01-01; NaN for anything else.
    static func number(from string: String, timeZone: TimeZone) -> Double {
        if let number = xpathNumber(string) { return number }
        if let parsed = ParsedDateTime(string) { return parsed.days(timeZone: timeZone) }
        return .nan
    }

    /// XPath's Number production, with an optional `-` and surrounding whitespace; no `+`, no
    /// exponent, no `Infinity`.
    static func xpathNumber(_ string: String) -> Double? {
        var utf8 = Substring(string).utf8[...]
        while let first = utf8.first, isXPathWhitespace(first) { utf8 = utf8.dropFirst() }
        while let last = utf8.last, isXPathWhitespace(last) { utf8 = utf8.dropLast() }
        var digits = 0
        var points = 0
        for (index, byte) in utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): points += 1
            case UInt8(ascii: "-") where index == 0: break
            default: return nil
            }
        }
        guard digits > 0, points <= 1 else { return nil }
        return Double(Substring(utf8))
    }

    static func isXPathWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// An ODK dateTime: `2020-01-02T03:04:05.678+02:00`.
    static func isoString(_ date: Date, utcOffset: Int) -> String {
        let (days, milliseconds) = date.localDay(utcOffset: utcOffset)
        let time = TimeOfDay(milliseconds: milliseconds)
        let sign = utcOffset < 0 ? "-" : "+"
        let offsetMinutes = abs(utcOffset) / 60
        return CivilDate(days: days).isoString + "T" + time.isoString
            + sign + pad(offsetMinutes / 60, 2) + ":" + pad(offsetMinutes % 60, 2)
    }
}

/// Division rounding toward negative infinity, with a remainder that is never negative.
func floorDivision<T: BinaryInteger>(_ dividend: T, _ divisor: T) -> (quotient: T, remainder: T) {
    var quotient = dividend / divisor
    var remainder = dividend % divisor
    if remainder < 0 {
        quotient -= 1
        remainder += divisor
    }
    return (quotient, remainder)
}

/// `value` in decimal with at least `width` digits.
func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(abs(value))
    let zeros = String(repeating: "0", count: max(0, width - digits.count))
    return (value < 0 ? "-" : "") + zeros + digits
}
