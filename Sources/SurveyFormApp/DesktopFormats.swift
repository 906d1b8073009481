import FormEngine
import Foundation
import GtkAppShell

/// Dates and numbers written as the desktop's locale writes them
/// (`LC_TIME`, `LC_NUMERIC`, else `LANG`): `29.11.2026, 14:02` and `12.000`
/// on a German desktop. Answers are stored in XForms notation whatever is shown.
extension DateFormatter {
    /// A day and a time, as the stored responses list them.
    static var desktopMedium: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = UserEnvironment.locale(for: .time)
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        return formatter
    }
}

extension Date {
    /// The date and time to the second, as the command line reports them.
    var desktopText: String {
        let formatter = DateFormatter()
        formatter.locale = UserEnvironment.locale(for: .time)
        formatter.dateStyle = .medium
        formatter.timeStyle = .medium
        return formatter.string(from: self)
    }
}

extension NumberSeparators {
    /// The desktop's decimal and thousands marks. A locale with no
    /// thousands mark (C) takes a comma.
    static var desktop: NumberSeparators {
        NumberSeparators(locale: UserEnvironment.locale(for: .numeric))
    }
}

extension AnswerNotation {
    /// Answers within labels and summaries as the desktop writes numbers
    /// and days; under the C locale, as stored.
    static var desktop: AnswerNotation {
        AnswerNotation(separators: .desktop, dateLocale: UserEnvironment.chosenLocale(for: .time))
    }
}
