public import TwoWayBinding

/// One row of a running form: its answer and everything derived from it and
/// the rest of the form. A window binds a widget to `value` and shows the rest.
///
/// Answers are held as XForms holds them, as text: `"12"`, `"2024-01-31"`,
/// `"a c"` for two choices of a select_multiple, `""` when unanswered.
@MainActor
public final class QuestionState {
    /// The row this state runs.
    public let question: Question
    /// The answer. For a calculated row it follows the calculation.
    public let value: Observable<String>
    /// Input a control could not turn into an answer ("abc" in a number field),
    /// reported by its binding; the answer keeps its last good value meanwhile.
    public let inputError: Observable<FieldValidation>
    /// Whether the row and every group around it are relevant now.
    public let isRelevant: ObservableBool
    /// Whether an answer is required now.
    public let isRequired: ObservableBool
    /// Whether the answer may be changed by the respondent now.
    public let isReadOnly: ObservableBool
    /// The answer's verdict: input error, required, constraint and type.
    public let validation: Derived<FieldValidation>
    /// Whether the answer was changed since the response began (a restored
    /// draft's answers do not count), or the form was asked to show every
    /// problem, as a refused submit does.
    public let isTouched = Observable(false)
    /// What the question's message shows now: input its control refused at
    /// once, the answer's verdict once touched, so that an untouched
    /// question is not scolded before its turn.
    public let shownValidation: Derived<FieldValidation>
    /// The label in the form's current language, `${}` references filled in,
    /// as words without Markdown or HTML marks (`formattedLabel` has them).
    public let label: Derived<String>
    /// The hint in the form's current language, `${}` references filled in,
    /// as words without marks (`formattedHint` has them).
    public let hint: Derived<String>
    /// The label with its emphasis, headings, colours and links.
    public let formattedLabel: Derived<FormattedText>
    /// The hint with its emphasis, headings, colours and links.
    public let formattedHint: Derived<FormattedText>
    /// How the answer reads (`12.5 yrs`) when the row has a `readout`, in the
    /// current language; `""` while unanswered. `nil` without one.
    public let readout: Derived<String>?
    /// The choices a select offers now (its list narrowed by `choice_filter`).
    public let choices: Derived<[Choice]>?
    /// The repeat this row runs, when it is a repeat.
    public let repeatState: RepeatState?

    /// The node expressions read this row's answer from (the calculation for a
    /// calculate row, else `value`), and how to read it.
    let source: ObservableNode
    let readSource: () -> String
    private let describeConstraintProblem: () -> String
    private var touching: ObservationToken?
    /// Positions among `choices` by name, made at the first lookup after the
    /// choices change: a list read from a file may hold 100,000 rows, and a
    /// pick or a summary must not walk them all.
    private var positionsByName: [String: Int]?
    private var choicesChanging: ObservationToken?

    init(
        question: Question, value: Observable<String>, source: ObservableNode, readSource: @escaping () -> String,
        isRelevant: ObservableBool, isRequired: ObservableBool, isReadOnly: ObservableBool,
        validation: Derived<FieldValidation>, label: Derived<FormattedText>, hint: Derived<FormattedText>, readout: Derived<String>?,
        choices: Derived<[Choice]>?, repeatState: RepeatState?, inputError: Observable<FieldValidation>,
        constraintProblem: @escaping () -> String
    ) {
        describeConstraintProblem = constraintProblem
        self.inputError = inputError
        self.question = question
        self.value = value
        self.source = source
        self.readSource = readSource
        self.isRelevant = isRelevant
        self.isRequired = isRequired
        self.isReadOnly = isReadOnly
        self.validation = validation
        formattedLabel = label
        formattedHint = hint
        self.label = Derived(from: [label]) { label.value.plainText }
        self.hint = Derived(from: [hint]) { hint.value.plainText }
        self.readout = readout
        self.choices = choices
        self.repeatState = repeatState
        let isTouched = isTouched
        shownValidation = Derived(from: [validation, isTouched, inputError]) {
            if !inputError.value.isValid { return inputError.value }
            return isTouched.value ? validation.value : .valid
        }
        touching = value.observeChange { isTouched.value = true }
        choicesChanging = choices?.observeChange { [weak self] in self?.positionsByName = nil }
    }

    /// Where the choice named `name` stands among those offered now (the
    /// first, if the list names two alike), or nil when none is offered.
    public func offeredPosition(of name: String) -> Int? {
        guard let choices else { return nil }
        if let positionsByName { return positionsByName[name] }
        var positions: [String: Int] = [:]
        positions.reserveCapacity(choices.value.count)
        for (position, choice) in choices.value.enumerated() where positions[choice.name] == nil {
            positions[choice.name] = position
        }
        positionsByName = positions
        return positions[name]
    }

    /// The choice named `name` among those offered now, if any.
    public func offeredChoice(named name: String) -> Choice? {
        offeredPosition(of: name).map { choices!.value[$0] }
    }

    /// What the form says of an answer its constraint refuses, in the current
    /// language: the row's constraint message, or the engine's own. For a
    /// control that refuses such an answer before it reaches `value`.
    public func constraintProblem() -> String {
        describeConstraintProblem()
    }
}

/// A yes-or-no state that may be fixed (most rows are always relevant and never
/// read-only) or derived; a fixed one costs no node in the dependency graph.
@MainActor
public enum ObservableBool {
    case constant(Bool)
    case derived(Derived<Bool>)

    /// The current value.
    public var value: Bool {
        switch self {
        case .constant(let value): value
        case .derived(let derived): derived.value
        }
    }

    /// The node to depend on, or `nil` when the value never changes.
    public var node: ObservableNode? {
        if case .derived(let derived) = self { return derived }
        return nil
    }

    /// Calls `observer` with each new value (never, for a constant).
    public func observe(sendInitial: Bool = false, _ observer: @escaping (Bool) -> Void) -> ObservationToken? {
        switch self {
        case .constant(let value):
            if sendInitial { observer(value) }
            return nil
        case .derived(let derived):
            return derived.observe(sendInitial: sendInitial, observer)
        }
    }
}
