/// One row of the survey sheet: a question, a group or a repeat.
public struct Question: Sendable {
    /// The row's `name`.
    public var name: String
    /// Its type, by its canonical XLSForm name.
    public var type: QuestionType
    /// The names of its enclosing groups and repeats, then its own.
    public var path: [String]
    /// The survey sheet's row.
    public var row: Int

    /// The choice list a select draws from (or the file of `select_one_from_file`).
    public var listName: String?
    /// Whether `or_other` follows the list's name.
    public var hasOtherChoice = false
    /// Whether the converter makes the row rather than the form holding it
    /// (`or_other`'s text question): run and stored, not described.
    public var isGenerated = false

    public var label = TranslatedText()
    public var hint = TranslatedText()
    public var guidanceHint = TranslatedText()
    /// Media shown with the label (`media::image`, …), file names per language, by kind.
    public var media: [MediaKind: TranslatedText] = [:]
    public var requiredMessage = TranslatedText()
    public var constraintMessage = TranslatedText()
    /// `readout`: how the answer reads beside its control and in the summary
    /// (`${years_shown} yrs`), in each language; `${}` references as in labels.
    public var readout = TranslatedText()

    /// `required`: yes, no, or an expression deciding it.
    public var required: Condition = .no
    /// `read_only`: yes, no, or an expression deciding it.
    public var readOnly: Condition = .no
    /// `trigger`: the `${name}` references whose changes alone recompute
    /// the calculation (ODK's setvalue on a value change).
    public var trigger: String?
    public var relevant: String?
    public var constraint: String?
    /// The constraint the type itself brings (`percentage`: 0 to 100, `phone
    /// number`: digits), as pyxform writes it into the XForm; it holds where
    /// the row writes no `constraint` of its own.
    public var typeConstraint: String?
    /// The constraint the answer is checked against: the row's, else its type's.
    public var effectiveConstraint: String? { constraint ?? typeConstraint }
    public var calculation: String?
    public var defaultValue: String?
    public var choiceFilter: String?
    public var appearance: String?
    public var repeatCount: String?
    /// `parameters` as written, by key (`start=0 end=60 step=0.5`).
    public var parameters: [String: String] = [:]
    /// A range's tick labels (`tick_labelset`'s choices), by the value they mark.
    public var tickLabels: [String: TranslatedText] = [:]
    /// Where a select in a `table-list` group stands: the first row shows
    /// the choices' labels above its buttons, every row its buttons alone.
    public var tableRow: TableRow?
    /// Columns the engine does not use itself, by canonical header.
    public var extraColumns: [String: String] = [:]

    /// The questions inside a group or repeat.
    public var children: [Question] = []
    /// For a `begin loop over LIST` row, run as the group of its choices'
    /// groups in `children`: the list and the rows as written.
    public var loop: LoopSource?

    /// The path joined by `/`, as the form's output names it.
    public var pathString: String { path.joined(separator: "/") }

    /// A range's `start`, `end` and `step`, with XLSForm's defaults 1, 10 and 1.
    public var rangeParameters: (start: Double, end: Double, step: Double)? {
        guard type == .range else { return nil }
        return (
            parameters["start"].flatMap(Double.init) ?? 1,
            parameters["end"].flatMap(Double.init) ?? 10,
            parameters["step"].flatMap(Double.init) ?? 1
        )
    }

    /// A range's values from `start` to `end` by `step`, written as its
    /// answers are (`7`, `2.5`); nil when there are more than `limit`.
    public func rangeValues(limit: Int) -> [String]? {
        guard let (start, end, step) = rangeParameters, step != 0, step.isFinite, start.isFinite, end.isFinite else { return nil }
        let count = ((end - start) / step).rounded(.down) + 1
        guard count >= 1, count <= Double(limit) else { return nil }
        let whole = step == step.rounded() && start == start.rounded()
        return Self.steps(from: start, by: step, count: Int(count)).map { value in
            whole && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
    }

    /// `count` values from `start` by `step`, each rounded to ten places so
    /// that steps of 0.1 read 0.3, not 0.30000000000000004.
    public static func steps(from start: Double, by step: Double, count: Int) -> [Double] {
        (0..<max(count, 0)).map { ((start + Double($0) * step) * 1e10).rounded() / 1e10 }
    }

    /// An integer or decimal question's own `start`, `end` and `step`
    /// (`parameters`, as a range's): the only numbers its control holds,
    /// unlike a constraint's bounds, which an answer may break and be told.
    /// `nil` unless both `start` and `end` are given.
    public var declaredBounds: (range: ClosedRange<Double>, step: Double)? {
        guard type == .integer || type == .decimal,
              let start = parameters["start"].flatMap(Double.init), let end = parameters["end"].flatMap(Double.init),
              start < end
        else { return nil }
        let step = parameters["step"].flatMap(Double.init) ?? 1
        return (start...end, step > 0 ? step : 1)
    }

    /// The numbers an integer or decimal question's constraint allows, when
    /// they form one closed interval (`. >= 0 and . <= 120`): what a spin
    /// button can offer. `nil` for any other type or constraint.
    public var constrainedRange: ClosedRange<Double>? {
        guard type == .integer || type == .decimal, let constraint = effectiveConstraint,
              let expression = try? FormExpression(constraint),
              let bounds = expression.boundsOfCurrentValue(wholeNumbers: type == .integer),
              let lower = bounds.lower, let upper = bounds.upper
        else { return nil }
        return lower...upper
    }
}

/// A yes-or-no column that may also hold an expression (`required`, `read_only`).
public enum Condition: Sendable, Equatable {
    case no
    case yes
    case expression(String)

    /// Reads a cell: `yes`, `true`, `true()` (any case) are yes; empty, `no`,
    /// `false`, `false()` are no; anything else is an expression.
    init(cell: String?) {
        guard let cell, !cell.isEmpty else { self = .no; return }
        switch cell.lowercased() {
        case "yes", "true", "true()": self = .yes
        case "no", "false", "false()": self = .no
        default: self = .expression(cell)
        }
    }
}

extension Question {
    /// Whether a select's choices are shown shuffled (`randomize=true`), as
    /// pyxform's `randomize()` itemset: by the `seed` parameter's value, or
    /// once per response without one.
    public var randomizesChoices: Bool {
        type.isSelect && parameters["randomize"] == "true"
    }
}

/// A select's place in a `table-list` group.
public enum TableRow: Sendable, Equatable {
    case first, following
}
