import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// A number with a range: a spin button offering it, empty while
/// unanswered. Bounds the question declares (`start`, `end`, `step` in its
/// parameters) are the control's own, and a number typed past them is
/// clamped into them, as GTK's spin button does; a range that only the
/// constraint sets is a rule, and a number outside it is refused with the
/// constraint's message.
@MainActor
enum NumberSpinControl: QuestionControlKind {
    static func answers(_ question: Question) -> Bool {
        // A number with its thousands grouped is typed: a spin button shows its own digits.
        (question.type == .integer || question.type == .decimal) && !question.hasAppearance("thousands-sep")
            && (question.declaredBounds != nil || question.constrainedRange != nil)
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        let question = state.question
        let wholeNumbers = question.type == .integer
        let spin: SpinButton
        if let declared = question.declaredBounds {
            let range = declared.range
            spin = SpinButton(range: range, step: declared.step)
            spin.digits = wholeNumbers ? 0 : [range.lowerBound, range.upperBound, declared.step].map(decimalPlaces).max()!
        } else if let range = question.constrainedRange {
            spin = SpinButton(range: range, step: wholeNumbers || range.upperBound - range.lowerBound > 10 ? 1 : 0.1)
            spin.digits = wholeNumbers ? 0 : max(2, decimalPlaces(of: range.lowerBound), decimalPlaces(of: range.upperBound))
            spin.outOfRangeMessage = { [weak state] _ in state?.constraintProblem() ?? "" }
        } else {
            return nil
        }
        // Letters reach the spin button, to be refused with a message that
        // quotes them (the spin button's own: "“abc” is not a number").
        spin.acceptsOnlyDigits = false
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
