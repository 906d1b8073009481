import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// A `range` question: a scale over its start, end and step, its value (or
/// its readout, when the form gives one) in a label beside it. Ticks mark
/// each `tick_interval` (or each step, when there are few), labelled from
/// `tick_labelset`, unless the form asks for `no-ticks`; `vertical` stands
/// the scale up, its start at the bottom, as Collect does; a range from a
/// higher start down to a lower end starts at the left.
@MainActor
enum RangeControl: QuestionControlKind {
    /// The most ticks drawn; a range with more steps and no interval has none.
    static let maximumTicks = 20

    static func answers(_ question: Question) -> Bool {
        question.type == .range
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        let question = state.question
        guard let parameters = question.rangeParameters else { return nil }
        let lower = min(parameters.start, parameters.end), upper = max(parameters.start, parameters.end)
        let vertical = question.hasAppearance("vertical")
        let scale = Scale(range: lower...upper, step: abs(parameters.step), vertical: vertical)
        scale.showsValue = false
        // A range counting down keeps its start where the scale begins (left,
        // or the bottom), so that an unanswered scale, at its start, moves
        // with the first arrow key pressed instead of sitting at its edge.
        if parameters.start > parameters.end { scale.isInverted.toggle() }
        if vertical {
            scale.setMinimumSize(height: 240)
        } else {
            scale.expandsHorizontally = true
        }
        if !question.hasAppearance("no-ticks") {
            for (value, label) in ticks(of: question, language: context.language.value) {
                scale.addMark(at: value, label: label)
            }
        }
        scale.bind(
            with: state.value, transform: .range(start: parameters.start, step: parameters.step),
            options: ControlContext.options(for: state)
        )
        let line = Box(vertical: false, spacing: 12)
        line.append(scale)
        line.append(ReadoutLabel.make(for: state))
        context.movesOnWithEnter(scale)
        var control = QuestionControl(shown: line, focusable: scale, validated: scale, labelled: [scale])
        control.showsReadout = true
        return control
    }

    /// Where the ticks go and what they say: every `tick_interval` from the
    /// start (else every step, when there are at most `maximumTicks`), each
    /// labelled by the `tick_labelset` choice named by its value, if any.
    static func ticks(of question: Question, language: String?) -> [(Double, String?)] {
        guard let parameters = question.rangeParameters else { return [] }
        let interval = question.parameters["tick_interval"].flatMap(Double.init) ?? abs(parameters.step)
        guard interval > 0, interval.isFinite else { return [] }
        let lower = min(parameters.start, parameters.end), upper = max(parameters.start, parameters.end)
        let count = ((upper - lower) / interval).rounded(.down) + 1
        guard count >= 2, count <= Double(maximumTicks) else { return [] }
        let labels = question.tickLabels
        return Question.steps(from: lower, by: interval, count: Int(count)).map { value in
            let name = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
            return (value, labels[name]?.text(in: language))
        }
    }
}
