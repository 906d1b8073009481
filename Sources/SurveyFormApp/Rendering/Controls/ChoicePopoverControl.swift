import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// A select_multiple shown `minimal`: a button naming the choices made,
/// opening a list of check boxes, as Collect opens its dialog. Enter or
/// Space opens it, Space ticks a choice in it, Escape closes it.
@MainActor
enum ChoicePopoverControl: QuestionControlKind {
    static func answers(_ question: Question) -> Bool {
        (question.type == .selectMultiple || question.type == .selectMultipleFromFile) && question.hasAppearance("minimal")
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        guard let choices = state.choices else { return nil }
        let language = context.language
        let list = Box(vertical: true, spacing: 2)
        list.setMargins(top: 6, bottom: 6, start: 6, end: 6)
        let scrolled = ScrolledWindow(child: list, minimumHeight: min(36 * Int32(clamping: choices.value.count), 320))
        let button = PopoverButton(label: "", content: [scrolled])
        button.horizontalAlignment = .start
        // Each check box carries its own binding; the list owns the boxes.
        let rebuild = { [weak list] in
            guard let list else { return }
            list.removeAll()
            for choice in choices.value {
                let box = CheckButton(label: choice.shownLabel(in: language.value))
                box.bind(with: state.value, transform: .choice(choice.name, in: state.value, multiple: true))
                list.append(box)
            }
        }
        rebuild()
        choices.observeChange { rebuild() }.store(in: context.bag)
        language.observeChange { rebuild() }.store(in: context.bag)
        // The button names what is chosen, in the form's language.
        let summary = { [weak button] in
            let chosen = Set(state.value.value.split(separator: " ").map(String.init))
            let labels = choices.value.filter { chosen.contains($0.name) }.map { $0.shownLabel(in: language.value) }
            button?.label = labels.isEmpty ? tr("Choose…") : labels.joined(separator: ", ")
        }
        summary()
        for node in [state.value as ObservableNode, choices, language] {
            node.observeChange { summary() }.store(in: context.bag)
        }
        return QuestionControl(shown: button, focusable: button, validated: button, labelled: [button])
    }
}
