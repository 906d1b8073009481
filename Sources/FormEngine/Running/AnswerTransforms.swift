public import Foundation
public import TwoWayBinding

/// How a form's text answers reach controls that show something else: a
/// choice's check button, a switch, a scale, a typed number. Each goes through
/// the binding engine, so a control never echoes and a refused input keeps the
/// answer as it was and reports why.
extension ValueTransform where Model == String, Control == Bool {
    /// Whether the choice `name` is among the answer's choices ↔ its check
    /// button. Checking adds it (or, for a select_one, makes it the answer);
    /// unchecking removes it. `answer` is the answer being changed.
    @MainActor
    public static func choice(_ name: String, in answer: Observable<String>, multiple: Bool) -> ValueTransform {
        ValueTransform(
            toControl: { value in
                multiple ? value.split(separator: " ").contains { $0 == name } : value == name
            },
            toModel: { checked in
                let current = answer.value
                guard multiple else {
                    // A radio group unchecks the old choice as it checks the
                    // new: only the choice that is the answer can clear it.
                    if checked { return .success(name) }
                    return .success(current == name ? "" : current)
                }
                var names = current.split(separator: " ").map(String.init).filter { $0 != name }
                if checked { names.append(name) }
                return .success(names.joined(separator: " "))
            }
        )
    }

    /// An acknowledge answer (`OK`, or nothing) ↔ a switch.
    public static var acknowledgement: ValueTransform {
        ValueTransform(toControl: { $0 == "OK" }, toModel: { .success($0 ? "OK" : "") })
    }
}

extension ValueTransform where Model == String, Control == Double {
    /// A range's answer ↔ a scale's position: a blank answer shows as `start`;
    /// a whole step gives whole-number answers (`7`, not `7.0`).
    public static func range(start: Double, step: Double) -> ValueTransform {
        let whole = step == step.rounded() && start == start.rounded()
        return ValueTransform(
            toControl: { Double($0) ?? start },
            toModel: { position in
                guard position.isFinite else { return .failure(ConversionError(tr("Enter a number."))) }
                if whole, abs(position) < 1e15 { return .success(String(Int64(position.rounded()))) }
                return .success(String(position))
            }
        )
    }
}

extension ValueTransform where Model == String, Control == Double? {
    /// An integer or decimal answer ↔ a spin button that may be empty: a
    /// blank answer is empty text; a whole number is written without a
    /// fraction (`42`, not `42.0`), as typed answers are.
    public static func number(wholeNumbers: Bool) -> ValueTransform {
        ValueTransform(
            toControl: { answer in Double(answer).flatMap { $0.isFinite ? $0 : nil } },
            toModel: { value in
                guard let value else { return .success("") }
                guard value.isFinite else { return .failure(ConversionError(tr("Enter a number."))) }
                if value == value.rounded(), abs(value) < 1e15 { return .success(String(Int64(value))) }
                if wholeNumbers { return .failure(ConversionError(tr("Enter a whole number."))) }
                return .success(String(value))
            }
        )
    }
}

/// The hour or the minute of a time of day, each picked with its own control.
public enum TimeOfDayPart: Sendable {
    case hour, minute
}

extension ValueTransform where Model == String, Control == Double {
    /// The hour or minute of a time or dateTime answer ↔ a spin button. A
    /// blank answer shows 0; picking one part keeps the other and anything
    /// after the minutes (seconds, a time zone). A dateTime without a day
    /// yet takes today's.
    @MainActor
    public static func timeOfDay(_ part: TimeOfDayPart, in answer: Observable<String>, dateTime: Bool) -> ValueTransform {
        func split(_ value: String) -> (day: String, hour: Int, minute: Int, rest: String) {
            var day = "", time = Substring(value)
            if dateTime {
                day = String(value.prefix(10))
                time = value.count > 11 ? value.dropFirst(11) : ""
            }
            let fields = time.prefix(5).split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count == 2, let hour = Int(fields[0]), let minute = Int(fields[1]),
                  (0..<24).contains(hour), (0..<60).contains(minute)
            else { return (day, 0, 0, "") }
            return (day, hour, minute, String(time.dropFirst(5)))
        }
        return ValueTransform(
            toControl: { value in
                let parts = split(value)
                return Double(part == .hour ? parts.hour : parts.minute)
            },
            toModel: { position in
                guard position.isFinite else { return .failure(ConversionError(tr("Enter a number."))) }
                var parts = split(answer.value)
                let number = Int(position.rounded())
                switch part {
                case .hour: parts.hour = min(max(number, 0), 23)
                case .minute: parts.minute = min(max(number, 0), 59)
                }
                let time = String(format: "%02d:%02d", parts.hour, parts.minute) + parts.rest
                // Stored as Collect stores it: seconds, milliseconds and the offset added if missing.
                guard dateTime else { return .success(TimeAnswer.stored(time: time) ?? time) }
                var day = parts.day
                if !ODKDate.isDate(day) {
                    let today = Calendar.current.dateComponents([.year, .month, .day], from: Date())
                    day = String(format: "%04d-%02d-%02d", today.year ?? 0, today.month ?? 0, today.day ?? 0)
                }
                return .success(TimeAnswer.stored(dateTime: day + "T" + time) ?? day + "T" + time)
            }
        )
    }
}

extension ValueTransform where Model == String, Control == Date? {
    /// A date or dateTime answer ↔ the day a date picker shows, in the
    /// local time zone. Picking a day keeps a dateTime's time of day
    /// (midnight when it has none); a blank answer picks no day.
    @MainActor
    public static func calendarDay(in answer: Observable<String>, keepingTime: Bool) -> ValueTransform {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return ValueTransform(
            toControl: { value in
                let parts = value.prefix(10).split(separator: "-").compactMap { Int($0) }
                guard value.count >= 10, parts.count == 3 else { return nil }
                return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
            },
            toModel: { date in
                guard let date else { return .success("") }
                let parts = calendar.dateComponents([.year, .month, .day], from: date)
                let day = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
                guard keepingTime else { return .success(day) }
                let current = answer.value
                let time = current.count > 10 && current.dropFirst(10).first == "T" ? String(current.dropFirst(10)) : "T00:00"
                return .success(TimeAnswer.stored(dateTime: day + time) ?? day + time)
            }
        )
    }
}

extension ValueTransform where Model == String, Control == String {
    /// Typed text ↔ an answer of `type` (integer, decimal, date, time,
    /// coordinates; see `GeoAnswer` for their notations): text
    /// that is not one is refused with the engine's message and the answer
    /// keeps its last good value. Blank text is a blank answer.
    @MainActor
    public static func typed(_ type: QuestionType, precision: DatePrecision = .day) -> ValueTransform {
        if type == .date, precision != .day { return typedPart(of: precision) }
        return ValueTransform(
            // A time shows as typed (`14:02`), stored as Collect stores it.
            toControl: { type == .time || type == .dateTime ? TimeAnswer.shown($0, type: type) : $0 },
            toModel: { text in
                let trimmed = String(text.trimmingWhitespace())
                if trimmed.isEmpty { return .success("") }
                if GeoAnswer.isGeo(type) {
                    return GeoAnswer.answer(typed: trimmed, for: type).mapError { ConversionError($0.message) }
                }
                if let problem = FormMessages.typeProblem(trimmed, for: type) {
                    return .failure(ConversionError(problem))
                }
                // To the millisecond, with the desktop's offset, as Collect stores them.
                if type == .time { return .success(TimeAnswer.stored(time: trimmed) ?? trimmed) }
                if type == .dateTime { return .success(TimeAnswer.stored(dateTime: trimmed) ?? trimmed) }
                return .success(trimmed)
            }
        )
    }

    /// A month (`2024-03`) or a year (`2024`) ↔ the date of its first day,
    /// which Collect stores for `month-year` and `year`. A whole date typed
    /// or pasted is taken as its month or year.
    @MainActor
    private static func typedPart(of precision: DatePrecision) -> ValueTransform {
        let shownLength = precision == .year ? 4 : 7
        return ValueTransform(
            toControl: { answer in ODKDate.isDate(answer) ? String(answer.prefix(shownLength)) : answer },
            toModel: { text in
                let trimmed = String(text.trimmingWhitespace())
                if trimmed.isEmpty { return .success("") }
                let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
                let wanted = precision == .year ? 1 : 2
                guard parts.count == wanted || (parts.count == 3 && ODKDate.isDate(trimmed)),
                      parts[0].count == 4, let year = Int(parts[0]), year > 0 else {
                    return .failure(ConversionError(precision == .year ? FormMessages.enterYear : FormMessages.enterMonth))
                }
                var month = 1
                if precision == .month {
                    guard parts[1].count <= 2, let typed = Int(parts[1]), (1...12).contains(typed) else {
                        return .failure(ConversionError(FormMessages.enterMonth))
                    }
                    month = typed
                }
                let monthText = month < 10 ? "0\(month)" : "\(month)"
                return .success("\(parts[0])-\(monthText)-01")
            }
        )
    }

    /// A number shown with its thousands grouped (`thousands-sep`) ↔ its
    /// answer: typed with or without the marks of `separators`, stored in
    /// XForms notation. `type` is integer, decimal, or text (a `numbers` text).
    @MainActor
    public static func grouped(_ type: QuestionType, separators: NumberSeparators) -> ValueTransform {
        let checked = type == .text ? digitsText : typed(type)
        return ValueTransform(
            toControl: { separators.grouped($0) },
            toModel: { text in checked.toModel(separators.ungrouped(text)) }
        )
    }

    /// A decimal answer ↔ its text with the locale's decimal mark
    /// (`12,5` in German), stored in XForms notation (`12.5`). A point is
    /// taken too, as a habit of typing; no thousands are grouped.
    @MainActor
    public static func localDecimal(separators: NumberSeparators) -> ValueTransform {
        let checked = typed(.decimal)
        guard separators.decimal != "." else { return checked }
        return ValueTransform(
            toControl: { answer in separators.withDecimalMark(answer) },
            toModel: { text in checked.toModel(String(text.map { $0 == separators.decimal ? "." : $0 })) }
        )
    }

    /// A text question with the `numbers` appearance: what is typed is kept
    /// as text (leading zeros and all), and only digits, a sign, a decimal
    /// mark and spaces are accepted, as Collect's number keyboard offers.
    @MainActor
    public static var digitsText: ValueTransform {
        ValueTransform(
            toControl: { $0 },
            toModel: { text in
                let allowed = text.allSatisfy { $0.isASCIIDigit || "+-.,".contains($0) || $0 == " " }
                return allowed ? .success(text) : .failure(ConversionError(FormMessages.onlyDigits))
            }
        )
    }
}
