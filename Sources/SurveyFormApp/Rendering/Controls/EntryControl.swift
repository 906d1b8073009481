import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// A line of text, or a number with no range to offer: an entry. Enter
/// moves on to the next question. A barcode is typed too: a USB scanner
/// types what it reads, and ends with Enter.
@MainActor
enum EntryControl: QuestionControlKind {
    static func answers(_ question: Question) -> Bool {
        [.text, .integer, .decimal, .barcode].contains(question.type)
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        let type = state.question.type
        let entry = Entry()
        // Ctrl+Z is the form's, which undoes per question (EditHistory).
        entry.undoesTyping = false
        if type == .text || type == .barcode {
            entry.bind(with: state.value, options: ControlContext.options(for: state))
        } else {
            entry.bind(with: state.value, transform: .typed(type), options: ControlContext.options(for: state))
            entry.inputPurpose = type == .integer ? .digits : .number
        }
        entry.onActivate { [advanceFocus = context.advanceFocus] in advanceFocus() }.keep(with: entry)
        return QuestionControl(shown: entry, focusable: entry, validated: entry, labelled: [entry])
    }
}
