import Foundation

extension ExpressionEvaluator {
    /// ODK's date and time functions. A blank or unreadable date gives "" (ODK Collect stops
    /// with an error instead; a form should see a blank).
    func dateFunction(_ function: ExpressionFunction, _ arguments: [ExpressionNode]) -> ExpressionValue {
        switch function {
        case .today:
            return .date(context.now.localDay(in: timeZone).days)
        case .now:
            return .dateTime(context.now, utcOffset: timeZone.secondsFromGMT(for: context.now))
        case .date:
            return date(evaluate(arguments[0])) ?? .string("")
        case .decimalDate:
            return date(evaluate(arguments[0])).map { .number(number($0)) } ?? .string("")
        case .dateTime:
            return dateTime(evaluate(arguments[0])) ?? .string("")
        case .decimalDateTime:
            return dateTime(evaluate(arguments[0])).map { .number(number($0)) } ?? .string("")
        case .decimalTime:
            return decimalTime(evaluate(arguments[0])).map { .number($0) } ?? .string("")
        default:
            guard let (day, milliseconds) = wallClock(evaluate(arguments[0])) else { return .string("") }
            return .string(format(day: day, milliseconds: milliseconds, evaluate(arguments[1]).stringValue))
        }
    }

    /// `date()`: a calendar day from a date, the date part of a date-time as written, or days
    /// since 1970-01-01.
    private func date(_ value: ExpressionValue) -> ExpressionValue? {
        switch value {
        case .date:
            return value
        case .dateTime(let moment, let offset):
            return .date(moment.localDay(utcOffset: offset).days)
        case .number(let days):
            return isDateRange(days) ? .date(Int(days.rounded(.down))) : nil
        case .boolean:
            return nil
        case .string, .nodes:
            let text = value.stringValue
            if let days = ExpressionValue.xpathNumber(text) { return date(.number(days)) }
            guard let day = ParsedDateTime(text)?.date else { return nil }
            return .date(day.days)
        }
    }

    /// `date-time()`: a moment, shown with its written offset or the context's.
    private func dateTime(_ value: ExpressionValue) -> ExpressionValue? {
        let moment: Date
        var offset: Int?
        switch value {
        case .dateTime:
            return value
        case .date(let days):
            moment = Date(localSeconds: Double(days) * secondsPerDay, in: timeZone)
        case .number(let days):
            guard isDateRange(days) else { return nil }
            moment = Date(timeIntervalSince1970: days * secondsPerDay)
        case .boolean:
            return nil
        case .string, .nodes:
            let text = value.stringValue
            if let days = ExpressionValue.xpathNumber(text) { return dateTime(.number(days)) }
            guard let parsed = ParsedDateTime(text) else { return nil }
            moment = parsed.instant(timeZone: timeZone)
            offset = parsed.utcOffset
        }
        return .dateTime(moment, utcOffset: offset ?? timeZone.secondsFromGMT(for: moment))
    }

    /// `decimal-time()`: the fraction of the local day a time or date-time is at (noon is 0.5).
    private func decimalTime(_ value: ExpressionValue) -> Double? {
        let millisecondsPerDay = 86_400_000.0
        switch value {
        case .number(let number):
            return number.isFinite ? number - number.rounded(.down) : nil
        case .date:
            return 0
        case .dateTime(let moment, _):
            return Double(moment.localDay(in: timeZone).milliseconds) / millisecondsPerDay
        case .boolean:
            return nil
        case .string, .nodes:
            let text = value.stringValue
            if let number = ExpressionValue.xpathNumber(text) { return decimalTime(.number(number)) }
            if let time = ParsedDateTime(time: text), let milliseconds = time.milliseconds {
                guard let written = time.utcOffset else { return Double(milliseconds) / millisecondsPerDay }
                let local = timeZone.secondsFromGMT(for: context.now)
                let shifted = floorDivision(milliseconds + (local - written) * 1000, 86_400_000).remainder
                return Double(shifted) / millisecondsPerDay
            }
            guard let parsed = ParsedDateTime(text) else { return nil }
            return decimalTime(.dateTime(parsed.instant(timeZone: timeZone), utcOffset: 0))
        }
    }

    /// The day and time of day `format-date()` shows: as written for text, in the value's own
    /// offset for a date-time, in the context's time zone for a number of days.
    private func wallClock(_ value: ExpressionValue) -> (CivilDate, Int)? {
        switch value {
        case .date(let days):
            return (CivilDate(days: days), 0)
        case .dateTime(let moment, let offset):
            let (days, milliseconds) = moment.localDay(utcOffset: offset)
            return (CivilDate(days: days), milliseconds)
        case .number(let days):
            guard isDateRange(days) else { return nil }
            let (day, milliseconds) = Date(timeIntervalSince1970: days * secondsPerDay).localDay(in: timeZone)
            return (CivilDate(days: day), milliseconds)
        case .boolean:
            return nil
        case .string, .nodes:
            let text = value.stringValue
            if let days = ExpressionValue.xpathNumber(text) { return wallClock(.number(days)) }
            guard let parsed = ParsedDateTime(text), let day = parsed.date else { return nil }
            return (day, parsed.milliseconds ?? 0)
        }
    }

    /// Whether a number of days since 1970 is a date this engine can show (some 270,000
    /// years either way); ODK Collect refuses what does not fit a 32-bit day count.
    private func isDateRange(_ days: Double) -> Bool {
        days.isFinite && Swift.abs(days) < 100_000_000
    }

    /// ODK's `format-date-time()` directives: `%Y %y %m %n %b %d %e %a %H %h %M %S %3`.
    private func format(day: CivilDate, milliseconds: Int, _ format: String) -> String {
        let time = TimeOfDay(milliseconds: milliseconds)
        var result = ""
        var scalars = format.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "%" else {
                result.unicodeScalars.append(scalar)
                continue
            }
            guard let directive = scalars.next() else {
                result += "%"
                break
            }
            switch directive {
            case "Y": result += pad(day.year, 4)
            case "y": result += pad(floorDivision(day.year, 100).remainder, 2)
            case "m": result += pad(day.month, 2)
            case "n": result += String(day.month)
            case "b": result += monthAbbreviations[day.month - 1]
            case "d": result += pad(day.day, 2)
            case "e": result += String(day.day)
            case "a": result += weekdayAbbreviations[day.weekday]
            case "H": result += pad(time.hour, 2)
            case "h": result += String(time.hour)
            case "M": result += pad(time.minute, 2)
            case "S": result += pad(time.second, 2)
            case "3": result += pad(time.millisecond, 3)
            default:
                result += "%"
                result.unicodeScalars.append(directive)
            }
        }
        return result
    }
}

// The form's language is not known here; English is what ODK falls back to.
private let monthAbbreviations = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
private let weekdayAbbreviations = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
