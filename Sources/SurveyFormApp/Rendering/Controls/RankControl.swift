import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// A `rank`: the choices as a list, most preferred first, each moved up or
/// down with its own buttons ("Move Apple up"), which the keyboard reaches
/// with Tab and a screen reader names, or dragged with the pointer to its
/// place. The answer is the whole order once the respondent has ranked
/// (moved an item, or kept the order shown); Clear makes it unranked again.
@MainActor
enum RankControl: QuestionControlKind {
    static func answers(_ question: Question) -> Bool {
        question.type == .rank
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        guard let choices = state.choices else { return nil }
        let language = context.language
        let list = ListBox()
        let status = Label()
        status.wrapsWords = true
        status.addStyleClass("dim-label")
        let keep = Button(label: tr("Keep This Order"))
        let clear = Button(label: tr("Clear Ranking"))
        // The button to focus once the list is made again: the moved item's.
        var refocus: (name: String, up: Bool)?
        var firstButton: Widget?

        let rebuild = { [weak list] in
            guard let list else { return }
            list.removeAll()
            firstButton = nil
            let order = RankOrder.names(state.value.value, offered: choices.value)
            let labels = Dictionary(choices.value.map { ($0.name, $0.shownLabel(in: language.value)) }) { first, _ in first }
            let readOnly = state.isReadOnly.value
            for (index, name) in order.enumerated() {
                let label = labels[name] ?? name
                let row = Box(vertical: false, spacing: 6)
                row.setMargins(top: 6, bottom: 6, start: 12, end: 6)
                let text = Label(String(format: tr("%d. %@"), Int32(index + 1), label))
                text.wrapsWords = true
                text.expandsHorizontally = true
                row.append(text)
                let up = Button(iconName: "go-up-symbolic", tooltip: String(format: tr("Move %@ up"), label))
                let down = Button(iconName: "go-down-symbolic", tooltip: String(format: tr("Move %@ down"), label))
                up.isSensitive = index > 0 && !readOnly
                down.isSensitive = index < order.count - 1 && !readOnly
                up.onClicked {
                    refocus = (name, true)
                    state.value.value = RankOrder.moving(order, at: index, by: -1)
                }
                .keep(with: up)
                down.onClicked {
                    refocus = (name, false)
                    state.value.value = RankOrder.moving(order, at: index, by: 1)
                }
                .keep(with: down)
                row.append(up)
                row.append(down)
                if !readOnly {
                    // Let go a whole number of rows away, the item lands there.
                    row.onPointerDrag { [weak list] drag in
                        guard case let .ended(_, dy) = drag, let height = list?.allocatedHeight, height > 0 else { return }
                        let rows = Int((dy * Double(order.count) / Double(height)).rounded())
                        guard rows != 0 else { return }
                        state.value.value = RankOrder.moving(order, at: index, by: rows)
                    }
                    .keep(with: row)
                }
                list.append(row)
                if firstButton == nil { firstButton = index == 0 ? down : up }
                if let wanted = refocus, wanted.name == name {
                    // At the list's end the button moved with is insensitive: the other one.
                    let button = wanted.up ? (up.isSensitive ? up : down) : (down.isSensitive ? down : up)
                    button.grabFocus()
                }
            }
            refocus = nil
            status.text = state.value.value.isEmpty ? tr("Not ranked yet: move the items, or keep this order.") : ""
            status.isVisible = state.value.value.isEmpty
            keep.isSensitive = state.value.value.isEmpty && !readOnly && !order.isEmpty
            clear.isSensitive = !state.value.value.isEmpty && !readOnly
        }
        rebuild()
        choices.observeChange { rebuild() }.store(in: context.bag)
        language.observeChange { rebuild() }.store(in: context.bag)
        state.value.observeChange { rebuild() }.store(in: context.bag)
        state.isReadOnly.observe { _ in rebuild() }?.store(in: context.bag)
        // Each button goes insensitive once pressed, which would leave the
        // keyboard nowhere: the focus passes to the other, sensitive now.
        keep.onClicked { [weak clear] in
            state.value.value = RankOrder.names(state.value.value, offered: choices.value).joined(separator: " ")
            if let clear, clear.isSensitive { clear.grabFocus() }
        }
        .store(in: context.bag)
        clear.onClicked { [weak keep] in
            state.value.value = ""
            if let keep, keep.isSensitive { keep.grabFocus() }
        }
        .store(in: context.bag)

        let buttons = Box(vertical: false, spacing: 6)
        buttons.append(keep)
        buttons.append(clear)
        let box = Box(vertical: true, spacing: 6)
        box.append(list)
        box.append(status)
        box.append(buttons)
        var control = QuestionControl(
            shown: box, focus: { firstButton?.grabFocus() }, validated: list, labelled: [list]
        )
        control.showsReadout = true
        return control
    }
}
