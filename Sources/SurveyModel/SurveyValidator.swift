public import TwoWayBinding
import Foundation

/// The survey's rules, one function per answer; each returns the message to
/// show, in the user's language, or `.valid`.
@MainActor
public enum SurveyValidator {
    public static func name(_ name: String) -> FieldValidation {
        if name.trimmingWhitespaceAndNewlines().isEmpty {
            return .invalid(tr("Name is required."))
        }
        if name.count > SurveyLimits.maximumNameLength {
            return .invalid(formatted(tr("Name must be at most %d characters."), SurveyLimits.maximumNameLength))
        }
        return .valid
    }

    public static func companyName(_ company: String) -> FieldValidation {
        if company.count > SurveyLimits.maximumCompanyLength {
            return .invalid(formatted(tr("Company must be at most %d characters."), SurveyLimits.maximumCompanyLength))
        }
        return .valid
    }

    public static func yearsOfExperience(_ years: Double?) -> FieldValidation {
        guard let years else { return .valid }
        let range = SurveyLimits.yearsOfExperience
        guard years.isFinite, range.contains(years) else {
            return .invalid(tr("Years of experience must be between 0 and 60."))
        }
        let steps = years / SurveyLimits.yearsOfExperienceStep
        if steps.rounded() != steps {
            return .invalid(tr("Years of experience must be a multiple of 0.5."))
        }
        return .valid
    }

    public static func approxSalary(_ salary: Float?) -> FieldValidation {
        guard let salary else { return .valid }
        guard salary.isFinite, SurveyLimits.approxSalary.contains(salary) else {
            return .invalid(tr("Approximate salary must be between 0 and 500,000."))
        }
        return .valid
    }

    public static func comments(_ comments: String) -> FieldValidation {
        if comments.count > SurveyLimits.maximumCommentsLength {
            return .invalid(formatted(tr("Comments must be at most %d characters."), SurveyLimits.maximumCommentsLength))
        }
        return .valid
    }

    /// Every rule at once: the first problem per field.
    public static func validate(_ answers: SurveyAnswers) -> [SurveyField: FieldValidation] {
        [
            .name: name(answers.name),
            .companyName: companyName(answers.companyName),
            .yearsOfExperience: yearsOfExperience(answers.yearsOfExperience),
            .isCurrentEmployer: .valid,
            .approxSalary: approxSalary(answers.approxSalary),
            .comments: comments(answers.comments),
        ]
    }

    private static func formatted(_ format: String, _ number: Int) -> String {
        format.replacingOccurrences(of: "%d", with: String(number))
    }
}
