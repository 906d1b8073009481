import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// A `range` shown as `rating`: a row of stars, one per value, as Collect
/// shows it. Clicking a star (or Space on it) rates that many; clicking the
/// rating again clears it. Each star is lit while the rating reaches it, and
/// heard by a screen reader as a radio button named for its place ("3 of 5"),
/// the rating's own checked.
@MainActor
enum RatingControl: QuestionControlKind {
    /// The most stars a row shows; a longer range is a scale.
    static let maximumStars = 20

    static func answers(_ question: Question) -> Bool {
        question.type == .range && question.hasAppearance("rating") && question.rangeValues(limit: maximumStars) != nil
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        guard let values = state.question.rangeValues(limit: maximumStars) else { return nil }
        let row = Box(vertical: false, spacing: 2)
        var stars: [ToggleButton] = []
        for (index, value) in values.enumerated() {
            let star = ToggleButton(iconName: "non-starred-symbolic", heardAsRadio: true)
            star.accessibleLabel = String(format: tr("%1$d of %2$d"), index + 1, values.count)
            star.tooltip = value
            star.onClicked { [answer = state.value] in
                answer.value = answer.value == value ? "" : value
            }
            .store(in: context.bag)
            row.append(star)
            stars.append(star)
        }
        // Each star follows the answer: lit up to the one rated.
        state.value.observe(sendInitial: true) { answer in
            let reached = values.firstIndex(of: answer) ?? values.firstIndex { Double($0) == Double(answer) } ?? -1
            for (index, star) in stars.enumerated() {
                star.isActive = index <= reached
                star.isHeardChecked = index == reached
                star.iconName = index <= reached ? "starred-symbolic" : "non-starred-symbolic"
            }
        }
        .store(in: context.bag)
        let focus: @MainActor () -> Void = {
            let reached = values.firstIndex(of: state.value.value) ?? 0
            stars[min(reached, stars.count - 1)].grabFocus()
        }
        // The row is named by the question; each star keeps its own name.
        return QuestionControl(shown: row, focus: focus, validated: row, labelled: [row])
    }
}
