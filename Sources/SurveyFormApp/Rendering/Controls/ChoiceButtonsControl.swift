import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// A select: check buttons, one per choice offered now (radio buttons for a
/// select_one, heard as such by a screen reader), rebuilt when
/// `choice_filter` or the language changes them.
@MainActor
enum ChoiceButtonsControl: QuestionControlKind {
    static func answers(_ question: Question) -> Bool {
        question.type.isSelectOne || question.type == .selectMultiple || question.type == .selectMultipleFromFile
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        guard let choices = state.choices else { return nil }
        let multiple = state.question.type.isSelectMultiple
        let box = Box(vertical: true, spacing: 2)
        let holder = Box(vertical: true)
        holder.append(box)
        let language = context.language
        var buttons: [CheckButton] = []
        let rebuild = { [weak box] in
            guard let box else { return }
            box.removeAll()
            buttons = []
            for choice in choices.value {
                let label = choice.shownLabel(in: language.value)
                let button = multiple ? CheckButton(label: label) : CheckButton(radioLabel: label)
                if !multiple, let leader = buttons.first { button.joinGroup(of: leader) }
                button.bind(with: state.value, transform: .choice(choice.name, in: state.value, multiple: multiple))
                box.append(button)
                buttons.append(button)
            }
        }
        rebuild()
        choices.observeChange { rebuild() }.store(in: context.bag)
        language.observeChange { rebuild() }.store(in: context.bag)
        // Enter picks the focused choice of a select_one, then moves on; in a
        // select_multiple Space ticks, and Enter moves on leaving the ticks.
        holder.onEnter { [advanceFocus = context.advanceFocus] in
            if !multiple, let focused = buttons.first(where: \.hasFocus) { focused.isChecked = true }
            advanceFocus()
            return true
        }
        .store(in: context.bag)
        // Focus goes to the chosen button, else the first.
        let focus: @MainActor () -> Void = { _ = (buttons.first { $0.isChecked } ?? buttons.first)?.grabFocus() }
        return QuestionControl(shown: holder, focus: focus, validated: box, labelled: [box])
    }
}
