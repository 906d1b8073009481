import TwoWayBinding
import FormEngine
import Foundation

/// The text the form shows for the answers: live labels and the summary.
@MainActor
public enum SurveyFormatter {
    /// Shown for an answer not given.
    public static let placeholder = "--"

    /// "12.5 yrs", or "--" when unset.
    public static func experience(_ years: Double?) -> String {
        guard let years, years.isFinite else { return placeholder }
        return String(format: tr("%.1f yrs"), years)
    }

    /// "85.0k" for 85,000, or "--" when unset.
    public static func salary(_ salary: Float?) -> String {
        guard let salary, salary.isFinite else { return placeholder }
        return String(format: tr("%.1fk"), Double(salary) / 1_000)
    }

    /// "YES" or "NO".
    public static func currentEmployer(_ isCurrent: Bool) -> String {
        isCurrent ? tr("YES") : tr("NO")
    }

    /// The most characters of one answer the summary shows: as many as the
    /// longest valid answer (the comments) has, so that only text the form
    /// refuses anyway is cut, and a 100,000-character paste costs the
    /// summary's layout no more than a valid answer does.
    public static let longestShown = 5_000

    /// The answer itself without surrounding spaces, or "--" when blank; an
    /// answer longer than `longestShown` is cut there, with "…".
    public static func text(_ answer: String) -> String {
        let trimmed = answer.trimmingWhitespaceAndNewlines()
        if trimmed.isEmpty { return placeholder }
        guard trimmed.utf8.count > longestShown, trimmed.count > longestShown else { return trimmed }
        return trimmed.prefix(longestShown) + "…"
    }

    /// One answer a line, in the form's order.
    public static func summary(_ answers: SurveyAnswers) -> String {
        [
            tr("Name:") + " " + text(answers.name),
            tr("Company:") + " " + text(answers.companyName),
            tr("Experience:") + " " + experience(answers.yearsOfExperience),
            tr("Current Employer?:") + " " + currentEmployer(answers.isCurrentEmployer),
            tr("approx Salary:") + " " + salary(answers.approxSalary),
            tr("Comments:") + " " + text(answers.comments),
        ].joined(separator: "\n")
    }
}

extension String {
    func trimmingWhitespaceAndNewlines() -> String {
        trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
