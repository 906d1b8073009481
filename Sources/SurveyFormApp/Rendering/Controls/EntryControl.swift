import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// A line of text, or a number with no range to offer: an entry. Enter
/// moves on to the next question. A barcode is typed too: a USB scanner
/// types what it reads, and ends with Enter.
///
/// Appearances: `numbers` takes digits only (kept as text), `thousands-sep`
/// groups a number's thousands as the desktop's locale writes them (a
/// decimal shows and takes the locale's decimal mark in any case),
/// `masked` (text) and `hidden-answer` (barcode) show dots for what is typed.
@MainActor
enum EntryControl: QuestionControlKind {
    static func answers(_ question: Question) -> Bool {
        [.text, .integer, .decimal, .barcode].contains(question.type)
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        let question = state.question
        let type = question.type
        let entry = Entry()
        // Ctrl+Z is the form's, which undoes per question (EditHistory).
        entry.undoesTyping = false
        let options = ControlContext.options(for: state)
        let numbersText = type == .text && question.hasAppearance("numbers")
        if question.hasAppearance("thousands-sep"), type != .text || numbersText, type != .barcode {
            var grouping = options
            // `12000` typed reads `12,000` once the person moves on.
            grouping.reformatsOnCommit = true
            entry.bind(with: state.value, transform: .grouped(type, separators: context.numberSeparators), options: grouping)
        } else if numbersText {
            entry.bind(with: state.value, transform: .digitsText, options: options)
        } else if type == .text || type == .barcode {
            entry.bind(with: state.value, options: options)
        } else if type == .decimal {
            entry.bind(with: state.value, transform: .localDecimal(separators: context.numberSeparators), options: options)
        } else {
            entry.bind(with: state.value, transform: .typed(type), options: options)
        }
        if type == .integer {
            entry.inputPurpose = .digits
        } else if type == .decimal || numbersText {
            entry.inputPurpose = .number
        }
        if question.hidesAnswer { entry.hidesText = true }
        entry.onActivate { [advanceFocus = context.advanceFocus] in advanceFocus() }.keep(with: entry)
        return QuestionControl(shown: entry, focusable: entry, validated: entry, labelled: [entry])
    }
}
