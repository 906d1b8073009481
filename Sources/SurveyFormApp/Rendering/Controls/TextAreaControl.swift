import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// Text over several lines (`multiline`): a text view in a framed scroller.
@MainActor
enum TextAreaControl: QuestionControlKind {
    static func answers(_ question: Question) -> Bool {
        question.type == .text && question.hasAppearance("multiline")
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        let text = TextView()
        // NB: word-char wrapping lays out a long unbroken paste in
        // seconds (GTK 4.8, Pango 1.50); word wrapping in milliseconds.
        text.wrapsWords = true
        // Tab leaves the question, as everywhere else in the form.
        text.acceptsTab = false
        // Ctrl+Z is the form's, which undoes per question (EditHistory).
        text.undoesTyping = false
        let scrolled = ScrolledWindow(child: text, hasFrame: true, minimumHeight: 80)
        text.bind(with: state.value, options: ControlContext.options(for: state))
        return QuestionControl(shown: scrolled, focusable: text, validated: text, labelled: [text])
    }
}
