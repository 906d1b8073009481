import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// The widgets one question shows: `shown` goes into its card, `focus`
/// moves focus to it, `validated` carries the error style, `labelled` are
/// named by the question's label for a screen reader.
@MainActor
struct QuestionControl {
    var shown: Widget
    var focus: @MainActor () -> Void
    var validated: Widget
    var labelled: [Widget]
    /// Whether `shown` has the answer's readout in it already; otherwise a
    /// question with a readout gets one beside the control.
    var showsReadout = false

    /// A control whose focus goes to one widget.
    init(shown: Widget, focusable: Widget, validated: Widget, labelled: [Widget]) {
        self.shown = shown
        focus = { [weak focusable] in focusable?.grabFocus() }
        self.validated = validated
        self.labelled = labelled
    }

    init(shown: Widget, focus: @escaping @MainActor () -> Void, validated: Widget, labelled: [Widget]) {
        self.shown = shown
        self.focus = focus
        self.validated = validated
        self.labelled = labelled
    }
}

/// What a control needs besides its question: where its observers go (they
/// end with the card), the form's language (choice labels follow it) and
/// the move to the next question.
@MainActor
struct ControlContext {
    let bag: ObservationToken.Bag
    let language: Observable<String?>
    let advanceFocus: @MainActor () -> Void
    /// Where the files of the response being filled in go; `nil` where
    /// there is no data folder to keep them (an attachment cannot be given).
    var files: ResponseFiles?
    /// Where the form's images, recordings and videos are (its media folder).
    var media: FormMedia = .none
    /// How numbers are written for the person filling in the form: the
    /// desktop locale's decimal and thousands marks.
    var numberSeparators = NumberSeparators.desktop

    /// Enter on `control` moves to the next question, where GTK would
    /// otherwise toggle it or do nothing.
    func movesOnWithEnter(_ control: Widget) {
        control.onEnter { [advanceFocus] in
            advanceFocus()
            return true
        }
        .store(in: bag)
    }

    /// Enter opens `dropDown`'s list, as in every GTK drop-down; Enter on
    /// a choice in it picks it, and then moves on to the next question.
    func movesOnAfterPick(in dropDown: DropDown) {
        dropDown.onEnterInList { [weak dropDown, advanceFocus] in
            // After the list has picked the choice and closed.
            Task { @MainActor [weak dropDown] in
                dropDown?.grabFocus()
                advanceFocus()
            }
            return false
        }
        .store(in: bag)
    }

    /// The binding options of `state`'s answer: its type's and the form's
    /// refusals show beside the control.
    static func options(for state: QuestionState) -> BindingOptions {
        BindingOptions(validation: state.inputError)
    }
}

/// One kind of control a question can be answered with. Each kind lives in
/// a file of its own under `Controls/`, with a test file of its own.
@MainActor
protocol QuestionControlKind {
    /// Whether this kind answers `question`, from its type, parameters and
    /// appearances.
    static func answers(_ question: Question) -> Bool

    /// The control for `state`, bound two-way to its answer, or `nil` when
    /// the form gives it nothing to offer.
    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl?
}

/// Which control answers a question: the first kind, most particular first,
/// that answers it. A new control is a new file and a line here.
@MainActor
enum ControlRegistry {
    static let kinds: [any QuestionControlKind.Type] = [
        LinkControl.self,
        TextAreaControl.self,
        NumberSpinControl.self,
        DateTimeControl.self,
        EntryControl.self,
        LocationControl.self,
        RatingControl.self,
        RangePickerControl.self,
        RangeControl.self,
        AcknowledgeControl.self,
        DrawingControl.self,
        AttachmentControl.self,
        DropDownControl.self,
        ChoicePopoverControl.self,
        ChoiceButtonsControl.self,
        RankControl.self,
    ]

    /// The kind that answers `question`, if any does.
    static func kind(for question: Question) -> (any QuestionControlKind.Type)? {
        kinds.first { $0.answers(question) }
    }

    static func makeControl(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        guard var control = kind(for: state.question)?.make(for: state, context: context) else { return nil }
        if state.readout != nil, !control.showsReadout {
            let line = Box(vertical: false, spacing: 12)
            control.shown.expandsHorizontally = true
            line.append(control.shown)
            line.append(ReadoutLabel.make(for: state))
            control.shown = line
            control.showsReadout = true
        }
        return control
    }
}
