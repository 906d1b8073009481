import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// An `acknowledge` question: a switch, on for "OK", off for unanswered.
@MainActor
enum AcknowledgeControl: QuestionControlKind {
    static func answers(_ question: Question) -> Bool {
        question.type == .acknowledge
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        let toggle = Switch()
        toggle.horizontalAlignment = .start
        toggle.bind(with: state.value, transform: .acknowledgement, options: ControlContext.options(for: state))
        // Space turns it on or off; Enter leaves it as it is.
        context.movesOnWithEnter(toggle)
        return QuestionControl(shown: toggle, focusable: toggle, validated: toggle, labelled: [toggle])
    }
}
