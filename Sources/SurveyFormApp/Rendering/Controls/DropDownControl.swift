import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// A select_one shown `minimal` or `autocomplete`, or drawing its
/// choices from a data file or the external_choices sheet (which may hold
/// thousands of rows): a drop-down of the choices offered now, searchable by
/// typing in its open list unless it is only `minimal`.
@MainActor
enum DropDownControl: QuestionControlKind {
    static func answers(_ question: Question) -> Bool {
        question.type.isSelectOne && (hasLongList(question) || question.hasAppearance("minimal") || isSearched(question))
    }

    /// Lists kept apart from the form because they are long: a data file's,
    /// the external_choices sheet's, a `search()`'s file.
    private static func hasLongList(_ question: Question) -> Bool {
        question.type == .selectOneFromFile || question.type == .selectOneExternal
            || (question.type == .selectOne && question.searchCall != nil)
    }

    /// `autocomplete`: the list is searched by typing, as Collect filters it.
    private static func isSearched(_ question: Question) -> Bool {
        question.hasAppearance("autocomplete")
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        guard let choices = state.choices else { return nil }
        let language = context.language
        let dropDown = DropDown()
        dropDown.horizontalAlignment = .start
        if isSearched(state.question) || hasLongList(state.question) {
            dropDown.enableSearch(label: String(format: tr("Search %@"), state.label.value))
        }
        let titles = ObservableList<String>()
        dropDown.showItems(titles) { $0 }.store(in: context.bag)
        let fill = { [weak dropDown] in
            guard let dropDown else { return }
            // The old binding must not read the emptied list as the user's choice.
            dropDown.binder = nil
            titles.replaceAll(with: choices.value.map { $0.shownLabel(in: language.value) })
            // The binding shows the answer again in the new list.
            dropDown.bind(with: state.value, transform: choiceIndex(of: state), options: ControlContext.options(for: state))
        }
        fill()
        choices.observeChange { fill() }.store(in: context.bag)
        language.observeChange { fill() }.store(in: context.bag)
        context.movesOnAfterPick(in: dropDown)
        return QuestionControl(shown: dropDown, focusable: dropDown, validated: dropDown, labelled: [dropDown])
    }

    /// A choice's name ↔ its position among the choices offered now.
    static func choiceIndex(of state: QuestionState) -> ValueTransform<String, Int?> {
        ValueTransform(
            toControl: { [weak state] name in state?.offeredPosition(of: name) },
            toModel: { [weak state] index in
                guard let index, let choices = state?.choices, choices.value.indices.contains(index) else { return .success("") }
                return .success(choices.value[index].name)
            }
        )
    }
}
