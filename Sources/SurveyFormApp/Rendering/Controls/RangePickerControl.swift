import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// A `range` shown as `picker`: a drop-down of its values, as Collect's
/// number picker offers them. Enter opens the list; Enter on a value picks
/// it and moves on.
@MainActor
enum RangePickerControl: QuestionControlKind {
    /// The most values a drop-down lists; a longer range is a scale.
    static let maximumValues = 1_000

    static func answers(_ question: Question) -> Bool {
        question.type == .range && question.hasAppearance("picker") && question.rangeValues(limit: maximumValues) != nil
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        guard let values = state.question.rangeValues(limit: maximumValues) else { return nil }
        let dropDown = DropDown()
        dropDown.horizontalAlignment = .start
        let items = ObservableList<String>(values)
        dropDown.showItems(items) { $0 }.store(in: context.bag)
        // Bindings hold their models weakly: the card keeps the list.
        ObservationToken { withExtendedLifetime(items) {} }.store(in: context.bag)
        dropDown.bind(
            with: state.value,
            transform: ValueTransform(
                toControl: { answer in values.firstIndex(of: answer) ?? values.firstIndex { Double($0) == Double(answer) } },
                toModel: { index in .success(index.map { values.indices.contains($0) ? values[$0] : "" } ?? "") }
            ),
            options: ControlContext.options(for: state)
        )
        context.movesOnAfterPick(in: dropDown)
        return QuestionControl(shown: dropDown, focusable: dropDown, validated: dropDown, labelled: [dropDown])
    }
}
