import TwoWayBinding
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

    /// The answer itself without surrounding spaces, or "--" when blank.
    public static func text(_ answer: String) -> String {
        let trimmed = answer.trimmingWhitespaceAndNewlines()
        return trimmed.isEmpty ? placeholder : trimmed
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
