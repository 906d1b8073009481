/// The engine's own messages, for answers a form refuses without saying why
/// itself. They go through `translate`, which the application points at its
/// translations (gettext) at start-up.
@MainActor
public enum FormMessages {
    /// Translates an English message. Identity until the application sets it.
    public static var translate: (String) -> String = { $0 }

    static var required: String { translate("This question requires an answer.") }
    static var constraint: String { translate("This answer is not allowed.") }

    /// Why `answer` is not a value of `type`, or `nil` when it is one.
    static func typeProblem(_ answer: String, for type: QuestionType) -> String? {
        switch type {
        case .integer:
            // XForms' `int`, 32 bits as ODK Collect and Enketo hold it: a
            // typed 9223372036854775807 is refused here, not clamped later.
            guard let number = Int(answer) else { return translate("Enter a whole number.") }
            return Int32(exactly: number) == nil ? translate("Enter a whole number between -2147483648 and 2147483647.") : nil
        case .decimal, .range:
            return Double(answer).map { $0.isFinite } == true ? nil : translate("Enter a number.")
        case .date:
            return ODKDate.isDate(answer) ? nil : translate("Enter a date as YYYY-MM-DD.")
        case .time:
            return ParsedDateTime(time: answer) != nil ? nil : translate("Enter a time as HH:MM.")
        case .dateTime:
            return ParsedDateTime(answer)?.milliseconds != nil ? nil : translate("Enter a date and time as YYYY-MM-DD HH:MM.")
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
