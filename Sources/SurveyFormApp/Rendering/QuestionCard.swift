import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// One question as the respondent sees it: a card holding its label (with
/// " *" when required), hint, control and message. The control comes from
/// `ControlRegistry`; the card names it for a screen reader, shows its
/// validation, and makes it insensitive while the question is read-only.
@MainActor
enum QuestionCard {
    /// Marks each question's card, so that Enter moves on past every other
    /// control of the same question (a date's picker, the rest of a group of
    /// choices), where Tab stops at each.
    private static let styleClass = "survey-form-question"

    /// The card of the question `widget` belongs to, if any.
    static func containing(_ widget: Widget?) -> Widget? {
        widget?.ancestor(withStyleClass: styleClass)
    }

    /// The card for `state` and its control (none for a note), or `nil` for
    /// a question computed or filled in by the app (calculate, hidden,
    /// metadata).
    static func make(for state: QuestionState, context: ControlContext) -> (card: Widget, control: QuestionControl?)? {
        let question = state.question
        guard question.type.isAnswerable || question.type == .note, !question.type.isMetadata,
              question.type != .hidden else { return nil }
        let bag = context.bag

        // NB: a card, not a GtkListBox row: a list box hands Tab only to the
        // very next row, so a note or a read-only question (nothing to focus)
        // would send Tab out of the whole group.
        let card = Box(vertical: true)
        card.addStyleClass("card")
        card.addStyleClass(styleClass)
        card.setMargins(bottom: 12)
        let box = Box(vertical: true, spacing: 6)
        box.setMargins(top: 12, bottom: 12, start: 12, end: 12)
        card.append(box)
        card.showWhile(state.isRelevant, bag: bag)

        // The label as the form words it, and a mark of its own beside it
        // while the question is required: the label's text stays the
        // label's (a screen reader hears "required" from the description).
        let title = Label()
        title.wrapsWords = true
        // Emphasis, headings, colours and links as Collect shows them; a
        // screen reader hears the words.
        title.showMarkup(state.formattedLabel, format: LabelMarkup.pango)
        let required = state.isRequired
        let mark = Label()
        mark.text = Self.requiredMark
        mark.addStyleClass("error")
        required.observe(sendInitial: true) { [weak mark] in mark?.isVisible = $0 }?.store(in: bag)
        mark.isVisible = required.value
        let titleLine = Box(vertical: false, spacing: 4)
        titleLine.append(title)
        titleLine.append(mark)
        box.append(titleLine)
        if let media = LabelMedia.make(question.media, label: state.label, context: context) { box.append(media) }

        let hint = Label()
        hint.wrapsWords = true
        hint.addStyleClass("dim-label")
        hint.addStyleClass("caption")
        hint.showMarkup(state.formattedHint, format: LabelMarkup.pango)
        state.hint.observe(sendInitial: true) { [weak hint] in hint?.isVisible = !$0.isEmpty }.store(in: bag)
        box.append(hint)
        if !question.guidanceHint.isEmpty { addGuidance(for: question, to: box, context: context) }

        guard question.type != .note, let control = ControlRegistry.makeControl(for: state, context: context) else {
            return (card, nil)
        }
        box.append(control.shown)

        let message = Label()
        message.wrapsWords = true
        message.addStyleClass("error")
        message.addStyleClass("caption")
        message.isVisible = false
        box.append(message)
        control.validated.showValidation(state.shownValidation, message: message)

        for widget in control.labelled {
            // A label that is only an image still names the control: by the question's name.
            state.label.observe(sendInitial: true) { [weak widget, name = question.name] in
                widget?.accessibleLabel = $0.isEmpty ? name : $0
            }
            .store(in: bag)
            let hint = state.hint
            let description = Derived(from: [hint, required.node].compactMap { $0 }) {
                Self.description(hint.value, required: required.value)
            }
            // The observer keeps its source: both go when the bag's token does.
            description.observe(sendInitial: true) { [weak widget, description] _ in
                widget?.accessibleDescription = description.value
            }
            .store(in: bag)
            required.observe(sendInitial: true) { [weak widget] in widget?.isAccessibleRequired = $0 }?
                .store(in: bag)
        }
        // A read-only question's control cannot take focus; its message can,
        // so a submit it refuses (a required question left blank, as Collect
        // refuses it too) still takes the keyboard and a screen reader to why.
        state.isReadOnly.observe(sendInitial: true) { [weak control = control.shown, weak message] readOnly in
            control?.isSensitive = !readOnly
            message?.isSelectable = readOnly
        }?
        .store(in: bag)
        var focusing = control
        if question.readOnly != .no {
            let readOnly = state.isReadOnly
            focusing.focus = { [weak message, focus = control.focus] in
                if readOnly.value { message?.grabFocus() } else { focus() }
            }
        }
        return (card, focusing)
    }

    /// `guidance_hint`, shown on request as Collect's "collapsed" guidance
    /// is: a toggle button under the hint, and the text under it while pressed.
    private static func addGuidance(for question: Question, to box: Box, context: ControlContext) {
        let language = context.language
        let toggle = ToggleButton(label: tr("Guidance"))
        toggle.horizontalAlignment = .start
        toggle.addStyleClass("flat")
        let guidance = Label()
        guidance.wrapsWords = true
        guidance.showMarkup(language) { LabelMarkup.pango(FormattedText(parsing: question.guidanceHint.text(in: $0) ?? "")) }
        guidance.isVisible = false
        let shown = Observable(false)
        toggle.bind(with: shown)
        // The observer keeps the flag (a binding holds its model weakly)
        // while the card lives.
        shown.observe { [weak guidance, shown] in
            _ = shown
            guidance?.isVisible = $0
        }
        .store(in: context.bag)
        box.append(toggle)
        box.append(guidance)
    }

    /// What marks a required question beside its label.
    static let requiredMark = "*"

    /// What a screen reader reads after a question's label: that it is
    /// required (GTK 4.8 puts no required state on the accessibility bus),
    /// then its hint.
    static func description(_ hint: String, required: Bool) -> String? {
        let parts = [required ? tr("Required") : nil, hint.isEmpty ? nil : hint].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: "\n")
    }
}

extension Widget {
    /// Shows the widget only while `relevance` holds. A hidden question must
    /// be invisible, not merely unrevealed: only then does it leave the
    /// accessibility tree and the focus chain.
    func showWhile(_ relevance: ObservableBool, bag: ObservationToken.Bag) {
        isVisible = relevance.value
        relevance.observe { [weak self] in self?.isVisible = $0 }?.store(in: bag)
    }
}
