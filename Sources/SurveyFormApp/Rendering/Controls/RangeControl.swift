import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// A `range` question: a scale over its start, end and step, its value (or
/// its readout, when the form gives one) in a label beside it.
@MainActor
enum RangeControl: QuestionControlKind {
    static func answers(_ question: Question) -> Bool {
        question.type == .range
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        guard let parameters = state.question.rangeParameters else { return nil }
        let lower = min(parameters.start, parameters.end), upper = max(parameters.start, parameters.end)
        let scale = Scale(range: lower...upper, step: abs(parameters.step))
        scale.showsValue = false
        scale.expandsHorizontally = true
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
}
