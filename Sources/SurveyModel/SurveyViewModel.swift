public import Foundation
public import TwoWayBinding

/// The survey form's state, its rules and its text, with no user interface.
///
/// A window binds its widgets to the observables here and shows the derived
/// values; everything the form decides is decided here, and tested here.
@MainActor
public final class SurveyViewModel {
    // MARK: - Answers

    public let name = Observable("")
    public let companyName = Observable("")
    /// `nil` until the respondent gives a value.
    public let yearsOfExperience = Observable<Double?>(nil)
    public let isCurrentEmployer = Observable(false)
    /// `nil` until the respondent gives a value.
    public let approxSalary = Observable<Float?>(nil)
    public let comments = Observable("")

    // MARK: - Derived text

    /// "12.5 yrs", or "--" when unset.
    public let experienceText: Derived<String>
    /// "85.0k", or "--" when unset.
    public let salaryText: Derived<String>
    /// Every answer at once, as one value.
    public let answers: Derived<SurveyAnswers>
    /// One answer a line: the form's summary.
    public let summary: Derived<String>

    // MARK: - Validation

    /// Input a control could not turn into an answer, per field ("abc" typed
    /// into a number field). Bindings report here; the model keeps its last
    /// valid value meanwhile.
    public let inputErrors: [SurveyField: Observable<FieldValidation>]
    private let validations: [SurveyField: Derived<FieldValidation>]
    /// Whether every answer is acceptable and every control holds valid input.
    public let isValid: Derived<Bool>

    // MARK: - Editing

    /// Undo and redo of edits to the answers.
    public let history = EditHistory()

    public init() {
        experienceText = yearsOfExperience.map(SurveyFormatter.experience)
        salaryText = approxSalary.map(SurveyFormatter.salary)

        let name = name, companyName = companyName, years = yearsOfExperience
        let isCurrentEmployer = isCurrentEmployer, salary = approxSalary, comments = comments
        answers = Derived(from: [name, companyName, years, isCurrentEmployer, salary, comments]) {
            SurveyAnswers(
                name: name.value,
                companyName: companyName.value,
                yearsOfExperience: years.value,
                isCurrentEmployer: isCurrentEmployer.value,
                approxSalary: salary.value,
                comments: comments.value
            )
        }
        summary = answers.map(SurveyFormatter.summary)

        var inputErrors: [SurveyField: Observable<FieldValidation>] = [:]
        for field in SurveyField.allCases { inputErrors[field] = Observable(.valid) }
        self.inputErrors = inputErrors

        let validations: [SurveyField: Derived<FieldValidation>] = [
            .name: Self.rule(inputErrors[.name]!, name, SurveyValidator.name),
            .companyName: Self.rule(inputErrors[.companyName]!, companyName, SurveyValidator.companyName),
            .yearsOfExperience: Self.rule(inputErrors[.yearsOfExperience]!, years, SurveyValidator.yearsOfExperience),
            .isCurrentEmployer: Self.rule(inputErrors[.isCurrentEmployer]!, isCurrentEmployer) { _ in .valid },
            .approxSalary: Self.rule(inputErrors[.approxSalary]!, salary, SurveyValidator.approxSalary),
            .comments: Self.rule(inputErrors[.comments]!, comments, SurveyValidator.comments),
        ]
        self.validations = validations
        let ordered = SurveyField.allCases.map { validations[$0]! }
        isValid = Derived(from: ordered) { ordered.allSatisfy { $0.value.isValid } }

        history.track(name, coalescing: true)
        history.track(companyName, coalescing: true)
        history.track(years)
        history.track(isCurrentEmployer)
        history.track(salary)
        history.track(comments, coalescing: true)
    }

    /// A field's state: the input error a control reported, else the rule's verdict.
    private static func rule<Value>(
        _ input: Observable<FieldValidation>,
        _ answer: Observable<Value>,
        _ check: @escaping @MainActor (Value) -> FieldValidation
    ) -> Derived<FieldValidation> {
        Derived(from: [input, answer]) {
            input.value.isValid ? check(answer.value) : input.value
        }
    }

    /// The state of one field: its input error if any, else its rule.
    public func validation(for field: SurveyField) -> Derived<FieldValidation> {
        validations[field]!
    }

    /// The first problem of the form, in the form's order, or `nil` when valid.
    public var firstProblem: (field: SurveyField, message: String)? {
        for field in SurveyField.allCases {
            if let message = validations[field]!.value.message { return (field, message) }
        }
        return nil
    }

    /// Sets every answer at once, as one change and one undo step.
    public func load(_ answers: SurveyAnswers) {
        batch {
            name.value = answers.name
            companyName.value = answers.companyName
            yearsOfExperience.value = answers.yearsOfExperience
            isCurrentEmployer.value = answers.isCurrentEmployer
            approxSalary.value = answers.approxSalary
            comments.value = answers.comments
            for error in inputErrors.values { error.value = .valid }
        }
    }

    /// Back to a blank form, as one undo step.
    public func reset() {
        load(.empty)
    }

    /// The response to store, or `nil` while the form is invalid.
    public func makeResponse(submittedAt: Date = Date()) -> SurveyResponse? {
        guard isValid.value else { return nil }
        var answers = answers.value
        answers.name = answers.name.trimmingWhitespaceAndNewlines()
        answers.companyName = answers.companyName.trimmingWhitespaceAndNewlines()
        return SurveyResponse(answers: answers, submittedAt: submittedAt)
    }

    /// Hands the response to `save` and, once it returns, clears the form for
    /// the next respondent and forgets the undo history. Returns `nil`, and
    /// clears nothing, while the form is invalid; when `save` throws, the form
    /// keeps every answer and the error goes to the caller.
    @discardableResult
    public func submit(at date: Date = Date(), save: (SurveyResponse) throws -> Void) rethrows -> SurveyResponse? {
        guard let response = makeResponse(submittedAt: date) else { return nil }
        try save(response)
        reset()
        history.clear()
        return response
    }
}
