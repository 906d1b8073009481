public import Foundation
public import TwoWayBinding
public import FormEngine

/// The survey form's state, its rules and its text, with no user interface.
///
/// The survey is an XLSForm (`Resources/survey.md` of this module, compiled
/// in) run by the forms engine: its questions, rules, messages and their
/// German translations come from the form. This class gives the window typed
/// answers to bind, mirrored into the form's text answers, and the seed's live
/// texts and summary.
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

    // MARK: - The form

    /// The built-in survey, running: it decides what is valid and says why.
    public let form: FormViewModel
    private let states: [SurveyField: QuestionState]
    /// Keep the form's answers following the typed ones.
    private var mirrors: [ObservationToken] = []

    // MARK: - Validation

    /// Input a control could not turn into an answer, per field ("abc" typed
    /// into a number field). Bindings report here; the model keeps its last
    /// valid value meanwhile.
    public let inputErrors: [SurveyField: Observable<FieldValidation>]
    /// Whether every answer is acceptable and every control holds valid input.
    public let isValid: Derived<Bool>

    // MARK: - Editing

    /// Undo and redo of edits to the answers.
    public let history = EditHistory()
    /// This response's identity, the form's, new for each respondent: it goes
    /// into the draft and the stored response, so that one response is stored once.
    public var instanceID: String { form.instanceID }
    /// When the response being typed was started: at the first blank form
    /// and after each submit, or as a restored draft says.
    public private(set) var startedAt = Date()

    /// The fields the user has edited, or that a refused submit reveals: only
    /// these show their rule's message, so that a blank form does not greet
    /// the user with errors.
    public let touched = Observable<Set<SurveyField>>([])
    /// Counts the user's edits; the answers replaced as a whole (a draft
    /// restored, the form cleared after a submit) are none.
    private let edits = Observable(0)
    /// Set while the model replaces the answers as a whole, so that its own
    /// change is not taken for the user's.
    private var isReplacingAnswers = false
    /// Whether a response is being stored: a second submit meanwhile stores nothing.
    public private(set) var isStoring = false

    /// Starts a blank survey whose messages are in the first of
    /// `preferredLanguages` the form has (English otherwise).
    public init(preferredLanguages: [String] = Localization.preferredLanguages) {
        let definition = BuiltInSurvey.definition
        do {
            form = try FormViewModel(
                definition: definition,
                language: FormViewModel.startLanguage(definition, preferring: preferredLanguages)
            )
        } catch {
            // The form is part of the binary and checked by its tests.
            preconditionFailure("The built-in survey cannot run: \(error)")
        }
        var states: [SurveyField: QuestionState] = [:]
        for field in SurveyField.allCases {
            guard let state = form.state(named: field.questionName) else {
                preconditionFailure("The built-in survey has no question '\(field.questionName)'")
            }
            states[field] = state
        }
        self.states = states
        inputErrors = states.mapValues(\.inputError)
        isValid = form.isValid

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

        // The form judges text as it will be stored: without control
        // characters, and with every kind of space one XPath trims, since the
        // stored text is trimmed of them all (a name of no-break spaces is blank).
        mirror(name, into: .name) { Self.formText($0) }
        mirror(companyName, into: .companyName) { Self.formText($0) }
        mirror(years, into: .yearsOfExperience) { $0.map { String(describing: $0) } ?? "" }
        // An acknowledge question holds `OK` once acknowledged, as ODK stores it.
        mirror(isCurrentEmployer, into: .isCurrentEmployer) { $0 ? "OK" : "" }
        mirror(salary, into: .approxSalary) { $0.map { String(describing: Double($0)) } ?? "" }
        mirror(comments, into: .comments) { $0.removingControlCharacters(keepingLineBreaks: true) }

        mirrors.append(history.track(name, coalescing: true))
        mirrors.append(history.track(companyName, coalescing: true))
        mirrors.append(history.track(years))
        mirrors.append(history.track(isCurrentEmployer))
        mirrors.append(history.track(salary))
        mirrors.append(history.track(comments, coalescing: true))

        let fields: [(SurveyField, ObservableNode)] = [
            (.name, name), (.companyName, companyName), (.yearsOfExperience, years),
            (.isCurrentEmployer, isCurrentEmployer), (.approxSalary, salary), (.comments, comments),
        ]
        for (field, answer) in fields {
            mirrors.append(answer.observeChange { [weak self] in self?.userEdited(field) })
        }
        // Input a control refused is shown at once, touched or not.
        for (field, error) in inputErrors {
            mirrors.append(error.observe { [weak self] validation in
                if !validation.isValid { self?.touched.value.insert(field) }
            })
        }
    }

    private func userEdited(_ field: SurveyField) {
        guard !isReplacingAnswers else { return }
        if !touched.value.contains(field) { touched.value.insert(field) }
        edits.value &+= 1
    }

    /// Calls `handler` after each edit of the user's (undo and redo are
    /// edits too), not when the answers are replaced as a whole.
    public func observeEdits(_ handler: @escaping @MainActor () -> Void) -> ObservationToken {
        edits.observeChange(handler)
    }

    /// A one-line text as the form should see it: no control characters, and
    /// Unicode's other spaces as plain ones, one for one, so lengths are kept.
    private static func formText(_ text: String) -> String {
        let cleaned = text.removingControlCharacters(keepingLineBreaks: false)
        guard cleaned.unicodeScalars.contains(where: { $0.value > 0x7F && $0.properties.isWhitespace }) else {
            return cleaned
        }
        var scalars = String.UnicodeScalarView()
        for scalar in cleaned.unicodeScalars {
            scalars.append(scalar.value > 0x7F && scalar.properties.isWhitespace ? " " : scalar)
        }
        return String(scalars)
    }

    /// Keeps the form's text answer for `field` equal to `answer` in the form's
    /// own notation. One way only: nothing else writes the form's answers.
    private func mirror<Value>(
        _ answer: Observable<Value>, into field: SurveyField, _ encode: @escaping (Value) -> String
    ) {
        let formAnswer = states[field]!.value
        mirrors.append(answer.observe(sendInitial: true) { formAnswer.value = encode($0) })
    }

    /// The state of one field: its input error if any, else the form's verdict.
    public func validation(for field: SurveyField) -> Derived<FieldValidation> {
        states[field]!.validation
    }

    /// What the field's control shows: its validation once the field is
    /// touched, valid before.
    public func shownValidation(for field: SurveyField) -> Derived<FieldValidation> {
        let rule = validation(for: field), touched = touched
        return Derived(from: [rule, touched]) { touched.value.contains(field) ? rule.value : .valid }
    }

    /// Marks every field touched, so that each shows what is wrong with it,
    /// as a refused submit does.
    public func revealProblems() {
        touched.value = Set(SurveyField.allCases)
    }

    /// The first problem of the form, in the form's order, or `nil` when valid.
    public var firstProblem: (field: SurveyField, message: String)? {
        for field in SurveyField.allCases {
            if let message = states[field]!.validation.value.message { return (field, message) }
        }
        return nil
    }

    /// Sets every answer at once, as one change and one undo step; no field
    /// counts as touched afterwards.
    public func load(_ answers: SurveyAnswers) {
        isReplacingAnswers = true
        defer {
            isReplacingAnswers = false
            touched.value = []
        }
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

    /// Goes on with a draft: its answers, with no undo history, and (when the
    /// draft has one) the identity of the response it was started as, so that
    /// submitting it after a crash cannot store it a second time.
    public func restore(_ answers: SurveyAnswers, instanceID: String?, startedAt: Date? = nil) {
        load(answers)
        history.clear()
        if let instanceID { form.resume(instanceID: instanceID) }
        if let startedAt { self.startedAt = startedAt }
    }

    /// Back to a blank form, as one undo step.
    public func reset() {
        load(.empty)
    }

    /// The response to store, or `nil` while the form is invalid.
    public func makeResponse(submittedAt: Date = Date()) -> SurveyResponse? {
        guard isValid.value else { return nil }
        var answers = answers.value
        // What is stored is what can be shown and exported safely.
        answers.name = answers.name.removingControlCharacters(keepingLineBreaks: false).trimmingWhitespaceAndNewlines()
        answers.companyName = answers.companyName.removingControlCharacters(keepingLineBreaks: false)
            .trimmingWhitespaceAndNewlines()
        answers.comments = answers.comments.removingControlCharacters(keepingLineBreaks: true)
        return SurveyResponse(
            answers: answers, submittedAt: submittedAt, instanceID: instanceID,
            startedAt: startedAt, formVersion: form.definition.settings.version
        )
    }

    /// Hands the response to `store` and, once it is stored, clears the form
    /// for the next respondent and forgets the undo history. The answers stay
    /// in the form until then, so that a failed store loses none of them: the
    /// error goes to the caller. Returns `nil`, storing nothing, while the form
    /// is invalid or while another response is being stored.
    ///
    /// `store` may wait for the disk (`ResponseStore.insert` syncs it, off the
    /// main thread); edits made meanwhile go with the form when it is cleared.
    @discardableResult
    public func submit(
        at date: Date = Date(), store: (SurveyResponse) async throws -> SurveyResponse
    ) async throws -> SurveyResponse? {
        guard !isStoring, let response = makeResponse(submittedAt: date) else { return nil }
        isStoring = true
        defer { isStoring = false }
        let stored = try await store(response)
        reset()
        history.clear()
        form.startNewInstance()
        startedAt = Date()
        return stored
    }
}
