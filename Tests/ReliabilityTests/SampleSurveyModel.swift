import Foundation
import TwoWayBinding

/// A realistic view model for the reliability tests, built on the binding
/// core's public API alone: typed answers, live texts derived from them (one
/// derived from others), per-field validation that combines a control's
/// refused input with the field's rule, an undo history, and observers that
/// write other observables while a change is delivered, as an application's
/// view model does. The tests' subject is the binding library; this is only
/// the model under it.
@MainActor
final class SampleSurveyModel {
    /// The survey's questions, in the order it asks them.
    enum Question: CaseIterable, Hashable {
        case name, companyName, yearsOfExperience, isCurrentEmployer, approxSalary, comments
    }

    // MARK: - Answers

    let name = Observable("")
    let companyName = Observable("")
    /// `nil` until the respondent gives a value.
    let yearsOfExperience = Observable<Double?>(nil)
    let isCurrentEmployer = Observable(false)
    /// `nil` until the respondent gives a value.
    let approxSalary = Observable<Float?>(nil)
    let comments = Observable("")

    // MARK: - Derived text

    /// "12.5 yrs", or "--" when unset.
    let experienceText: Derived<String>
    /// "85.0k", or "--" when unset.
    let salaryText: Derived<String>
    /// One answer a line; derived in part from the two texts above.
    let summary: Derived<String>

    // MARK: - Validation

    /// Input a control could not turn into an answer, per question ("abc"
    /// typed into a number field): bindings report here.
    let inputErrors: [Question: Observable<FieldValidation>]
    /// Per question: its input error if any, else its rule's verdict.
    private let validations: [Question: Derived<FieldValidation>]
    /// Whether every question is acceptable.
    let isValid: Derived<Bool>

    // MARK: - Editing

    /// Undo and redo of edits to the answers.
    let history = EditHistory()
    /// The questions edited so far, or whose control refused input: written
    /// by observers while a change is being delivered.
    let touched = Observable<Set<Question>>([])
    private let tracking = ObservationToken.Bag()

    nonisolated static let placeholder = "--"
    nonisolated static let longestName = 200
    nonisolated static let yearsRange = 0.0...60.0
    nonisolated static let salaryRange: ClosedRange<Float> = 0...500_000

    init() {
        var inputErrors: [Question: Observable<FieldValidation>] = [:]
        for question in Question.allCases { inputErrors[question] = Observable(FieldValidation.valid) }
        self.inputErrors = inputErrors

        experienceText = yearsOfExperience.map(Self.experience)
        salaryText = approxSalary.map(Self.salary)
        let name = name, companyName = companyName, years = yearsOfExperience
        let isCurrentEmployer = isCurrentEmployer, salary = approxSalary, comments = comments
        let experienceText = experienceText, salaryText = salaryText
        summary = Derived(from: [name, companyName, experienceText, isCurrentEmployer, salaryText, comments]) {
            [
                "Name: " + Self.text(name.value),
                "Company: " + Self.text(companyName.value),
                "Experience: " + experienceText.value,
                "Current Employer?: " + (isCurrentEmployer.value ? "YES" : "NO"),
                "approx Salary: " + salaryText.value,
                "Comments: " + Self.text(comments.value),
            ].joined(separator: "\n")
        }

        let answers: [Question: ObservableNode] = [
            .name: name, .companyName: companyName, .yearsOfExperience: years,
            .isCurrentEmployer: isCurrentEmployer, .approxSalary: salary, .comments: comments,
        ]
        let rules: [Question: () -> FieldValidation] = [
            .name: { Self.nameRule(name.value) },
            .yearsOfExperience: { Self.yearsRule(years.value) },
            .approxSalary: { Self.salaryRule(salary.value) },
        ]
        var validations: [Question: Derived<FieldValidation>] = [:]
        for question in Question.allCases {
            let error = inputErrors[question]!
            let rule = rules[question] ?? { .valid }
            validations[question] = Derived(from: [error, answers[question]!]) {
                error.value.isValid ? rule() : error.value
            }
        }
        self.validations = validations
        let all = Question.allCases.map { validations[$0]! }
        isValid = Derived(from: all) { all.allSatisfy(\.value.isValid) }

        history.track(name, coalescing: true).store(in: tracking)
        history.track(companyName, coalescing: true).store(in: tracking)
        history.track(years).store(in: tracking)
        history.track(isCurrentEmployer).store(in: tracking)
        history.track(salary).store(in: tracking)
        history.track(comments, coalescing: true).store(in: tracking)

        // Weakly: the model's own observers must not keep it alive.
        for (question, answer) in answers {
            answer.observeChange { [weak self] in self?.markTouched(question) }.store(in: tracking)
        }
        for (question, error) in inputErrors {
            error.observe { [weak self] validation in
                if !validation.isValid { self?.markTouched(question) }
            }.store(in: tracking)
        }
    }

    private func markTouched(_ question: Question) {
        if !touched.value.contains(question) { touched.value.insert(question) }
    }

    /// The state of one question: its input error if any, else its rule's.
    /// The same instance on every call.
    func validation(for question: Question) -> Derived<FieldValidation> {
        validations[question]!
    }

    // MARK: - Rules

    nonisolated static func nameRule(_ name: String) -> FieldValidation {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return .invalid("A name is required") }
        if name.count > longestName { return .invalid("At most \(longestName) characters") }
        return .valid
    }

    nonisolated static func yearsRule(_ years: Double?) -> FieldValidation {
        guard let years else { return .valid }
        guard years.isFinite, yearsRange.contains(years) else { return .invalid("Between 0 and 60 years") }
        return (years * 2).rounded() == years * 2 ? .valid : .invalid("In half years")
    }

    nonisolated static func salaryRule(_ salary: Float?) -> FieldValidation {
        guard let salary else { return .valid }
        return salary.isFinite && salaryRange.contains(salary) ? .valid : .invalid("Between 0 and 500,000")
    }

    // MARK: - Formatting

    /// "12.5 yrs", or "--" when unset.
    nonisolated static func experience(_ years: Double?) -> String {
        guard let years, years.isFinite else { return placeholder }
        return String(format: "%.1f yrs", years)
    }

    /// "85.0k" for 85,000, or "--" when unset.
    nonisolated static func salary(_ salary: Float?) -> String {
        guard let salary, salary.isFinite else { return placeholder }
        return String(format: "%.1fk", Double(salary) / 1_000)
    }

    /// The answer without surrounding spaces, or "--" when blank.
    nonisolated static func text(_ answer: String) -> String {
        let trimmed = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? placeholder : trimmed
    }
}
