import FormEngine

import TwoWayBindingGtk

/// The label beside a control that says how its answer reads: the form's
/// `readout` (`12.5 yrs`) when it has one, else the answer itself, and `--`
/// while unanswered, as the summary says it.
@MainActor
enum ReadoutLabel {
    static func make(for state: QuestionState) -> Label {
        let label = Label()
        if let readout = state.readout {
            label.show(readout, format: Self.shown)
        } else {
            label.show(state.value, format: Self.shown)
        }
        label.setMinimumSize(width: 48)
        return label
    }

    nonisolated static func shown(_ text: String) -> String {
        text.isEmpty ? FormViewModel.unanswered : text
    }
}
