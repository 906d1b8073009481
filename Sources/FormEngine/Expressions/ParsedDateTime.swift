import Foundation

/// An ODK date (`2020-01-02`), dateTime (`2020-01-02T03:04:05.678+02:00`) or time
/// (`03:04:05.678+02:00`) read from text: the fields as written, and the offset if given.
struct ParsedDateTime {
    /// The day; nil for a time alone.
    var date: CivilDate?
    /// Milliseconds since midnight; nil for a date alone.
    var milliseconds: Int?
    /// The written UTC offset in seconds; nil without one (local time).
    var utcOffset: Int?

    /// Reads a date or a date-time (`T` or a space between); nil for anything else.
    init?(_ text: String) {
        var scanner = Scanner(text)
        guard let date = scanner.date() else { return nil }
        self.date = date
        if scanner.atEnd { return }
        guard scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: " ")),
              let (milliseconds, offset) = scanner.timeAndOffset(), scanner.atEnd
        else { return nil }
        self.milliseconds = milliseconds
        self.utcOffset = offset
    }

    /// Reads a time of day with an optional offset; nil for anything else.
    init?(time text: String) {
        var scanner = Scanner(text)
        guard let (milliseconds, offset) = scanner.timeAndOffset(), scanner.atEnd else { return nil }
        self.milliseconds = milliseconds
        self.utcOffset = offset
    }

    /// Days since 1970-01-01: whole for a date, fractional (of UTC days) for a date-time.
    func days(timeZone: TimeZone) -> Double {
        guard let date else { return .nan }
        guard milliseconds != nil else { return Double(date.days) }
        return instant(timeZone: timeZone).timeIntervalSince1970 / secondsPerDay
    }

    /// The moment written; local times (and dates, at midnight) are read in `timeZone`.
    func instant(timeZone: TimeZone) -> Date {
        let wallSeconds = Double((date?.days ?? 0)) * secondsPerDay + Double(milliseconds ?? 0) / 1000
        if let utcOffset { return Date(timeIntervalSince1970: wallSeconds - Double(utcOffset)) }
        return Date(localSeconds: wallSeconds, in: timeZone)
    }

    private struct Scanner {
        var bytes: [UInt8]
        var index = 0

        init(_ text: String) {
            var utf8 = Substring(text).utf8[...]
            while let first = utf8.first, ExpressionValue.isXPathWhitespace(first) { utf8 = utf8.dropFirst() }
            while let last = utf8.last, ExpressionValue.isXPathWhitespace(last) { utf8 = utf8.dropLast() }
            bytes = Array(utf8)
        }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func number(digits count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }

        mutating func date() -> CivilDate? {
            guard let year = number(digits: 4), take(UInt8(ascii: "-")),
                  let month = number(digits: 2), take(UInt8(ascii: "-")),
                  let day = number(digits: 2)
            else { return nil }
            let date = CivilDate(year: year, month: month, day: day)
            return date.isValid ? date : nil
        }

        mutating func timeAndOffset() -> (milliseconds: Int, offset: Int?)? {
            guard let hour = number(digits: 2), hour < 24, take(UInt8(ascii: ":")),
                  let minute = number(digits: 2), minute < 60
            else { return nil }
            var second = 0
            var millisecond = 0
            if take(UInt8(ascii: ":")) {
                guard let value = number(digits: 2), value < 60 else { return nil }
                second = value
                if take(UInt8(ascii: ".")) {
                    // Fractions beyond milliseconds are read and dropped.
                    var scale = 100
                    let start = index
                    while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                        millisecond += Int(bytes[index] - UInt8(ascii: "0")) * scale
                        scale /= 10
                        index += 1
                    }
                    guard index > start else { return nil }
                }
            }
            let milliseconds = ((hour * 60 + minute) * 60 + second) * 1000 + millisecond
            if atEnd { return (milliseconds, nil) }
            if take(UInt8(ascii: "Z")) { return (milliseconds, 0) }
            let sign: Int
            if take(UInt8(ascii: "+")) { sign = 1 } else if take(UInt8(ascii: "-")) { sign = -1 } else { return nil }
            guard let offsetHours = number(digits: 2) else { return nil }
            var offsetMinutes = 0
            if !atEnd {
                _ = take(UInt8(ascii: ":"))
                guard let minutes = number(digits: 2) else { return nil }
                offsetMinutes = minutes
            }
            return (milliseconds, sign * (offsetHours * 3600 + offsetMinutes * 60))
        }
    }
}
