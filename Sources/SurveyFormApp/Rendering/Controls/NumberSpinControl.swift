import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// A number whose constraint sets its range: a spin button offering that
/// range, empty while unanswered. A number outside it is refused with the
/// constraint's message rather than clamped into it.
@MainActor
enum NumberSpinControl: QuestionControlKind {
    static func answers(_ question: Question) -> Bool {
        (question.type == .integer || question.type == .decimal) && question.constrainedRange != nil
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        guard let range = state.question.constrainedRange else { return nil }
        let wholeNumbers = state.question.type == .integer
        let digits = wholeNumbers ? 0 : max(2, decimalPlaces(of: range.lowerBound), decimalPlaces(of: range.upperBound))
        let step = wholeNumbers || range.upperBound - range.lowerBound > 10 ? 1 : 0.1
        let spin = SpinButton(range: range, step: step)
        spin.digits = digits
        // Letters reach the spin button, to be refused with the form's message.
        spin.acceptsOnlyDigits = false
        spin.notANumberMessage = { [weak state] text in state?.typeProblem(text) ?? "" }
        spin.outOfRangeMessage = { [weak state] _ in state?.constraintProblem() ?? "" }
        spin.allowingEmpty.bind(
            with: state.value, transform: .number(wholeNumbers: wholeNumbers), options: ControlContext.options(for: state)
        )
        // Enter reaches the spin button's text, after the binding has taken it.
        spin.onActivate { [advanceFocus = context.advanceFocus] in advanceFocus() }.keep(with: spin)
        return QuestionControl(shown: spin, focusable: spin, validated: spin, labelled: [spin])
    }

    /// The places after the point `number` is written with: the spin button
    /// shows at least as many as the range's bounds.
    nonisolated static func decimalPlaces(of number: Double) -> Int {
        let written = String(number)
        guard !written.contains("e"), let point = written.firstIndex(of: ".") else { return 0 }
        let fraction = written[written.index(after: point)...]
        return fraction == "0" ? 0 : fraction.count
    }
}
