/// The engine's own messages, for answers a form refuses without saying why
/// itself, translated through `Localization`.
@MainActor
enum FormMessages {
    static var required: String { tr("This question requires an answer.") }
    static var constraint: String { tr("This answer is not allowed.") }
    static var enterMonth: String { tr("Enter a month as YYYY-MM.") }
    static var enterYear: String { tr("Enter a year as YYYY.") }
    static var onlyDigits: String { tr("Enter digits only.") }

    /// Why `answer` is not a value of `type`, or `nil` when it is one.
    static func typeProblem(_ answer: String, for type: QuestionType) -> String? {
        switch type {
        case .integer:
            // XForms' `int`, 32 bits as ODK Collect and Enketo hold it: a
            // typed 9223372036854775807 is refused here, not clamped later.
            guard let number = Int(answer) else { return tr("Enter a whole number.") }
            return Int32(exactly: number) == nil ? tr("Enter a whole number between -2147483648 and 2147483647.") : nil
        case .decimal, .range:
            return Double(answer).map { $0.isFinite } == true ? nil : tr("Enter a number.")
        case .date:
            return ODKDate.isDate(answer) ? nil : tr("Enter a date as YYYY-MM-DD.")
        case .time:
            return ParsedDateTime(time: answer) != nil ? nil : tr("Enter a time as HH:MM.")
        case .dateTime:
            return ParsedDateTime(answer)?.milliseconds != nil ? nil : tr("Enter a date and time as YYYY-MM-DD HH:MM.")
        case .geopoint, .geotrace, .geoshape:
            guard case .failure(let problem) = GeoAnswer.points(stored: answer, for: type) else { return nil }
            return problem.message
        default:
            return nil
        }
    }
}

/// Text forms of dates as XForms stores them.
enum ODKDate {
    /// `YYYY-MM-DD` with a real month and day.
    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return false }
        return CivilDate(year: year, month: month, day: day).isValid
    }
}
