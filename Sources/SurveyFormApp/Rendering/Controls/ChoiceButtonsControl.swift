import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// A select: check buttons, one per choice offered now (radio buttons for a
/// select_one, heard as such by a screen reader), rebuilt when
/// `choice_filter` or the language changes them. They are laid out as the
/// appearance asks (`ChoiceLayout`): a list, a grid of columns, packed
/// lines, a likert scale, or a row of a `table-list`; a choice's image
/// (`media::image`) shows under it.
@MainActor
enum ChoiceButtonsControl: QuestionControlKind {
    /// How wide a table's column is, so that the header's labels stand
    /// over the buttons of every row below it.
    static let tableColumnWidth: Int32 = 110
    /// Roughly how many characters fit on a packed line.
    static let packedLineCharacters = 64

    static func answers(_ question: Question) -> Bool {
        question.type.isSelectOne || question.type == .selectMultiple || question.type == .selectMultipleFromFile
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        guard let choices = state.choices else { return nil }
        let question = state.question
        let multiple = question.type.isSelectMultiple
        let layout = question.choiceLayout
        let holder = Box(vertical: true)
        let language = context.language
        var buttons: [CheckButton] = []
        let rebuild = { [weak holder] in
            guard let holder else { return }
            holder.removeAll()
            buttons = []
            var cells: [(choice: Choice, label: String, button: CheckButton?)] = []
            for choice in choices.value {
                let label = choice.shownLabel(in: language.value)
                var button: CheckButton?
                if layout != .labelsOnly {
                    // In a likert scale or a table the label stands apart (or above): the button carries it for a screen reader.
                    let apart = layout == .likert || layout == .buttonsOnly
                    let made = multiple ? CheckButton(label: apart ? nil : label) : CheckButton(radioLabel: apart ? "" : label)
                    if apart { made.accessibleLabel = label }
                    if !multiple, let leader = buttons.first { made.joinGroup(of: leader) }
                    made.bind(with: state.value, transform: .choice(choice.name, in: state.value, multiple: multiple))
                    buttons.append(made)
                    button = made
                }
                cells.append((choice, label, button))
            }
            holder.append(arrange(cells, layout: layout, header: question.tableRow == .first, context: context))
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
        // The holder lasts while the buttons are rebuilt: it carries the
        // question's name and the error style.
        return QuestionControl(shown: holder, focus: focus, validated: holder, labelled: [holder])
    }

    /// The cells laid out as `layout` asks; `header` puts the labels above
    /// the buttons of the first row of a table.
    private static func arrange(
        _ cells: [(choice: Choice, label: String, button: CheckButton?)], layout: ChoiceLayout, header: Bool, context: ControlContext
    ) -> Widget {
        func cell(_ entry: (choice: Choice, label: String, button: CheckButton?)) -> Widget {
            guard let button = entry.button else { return Label(entry.label) }
            guard let image = LabelMedia.choiceImage(entry.choice, label: entry.label, context: context) else { return button }
            let box = Box(vertical: true, spacing: 4)
            box.append(button)
            box.append(image)
            return box
        }
        func caption(_ text: String) -> Label {
            let label = Label(text)
            label.wrapsCentered = true
            return label
        }
        switch layout {
        case .list:
            let box = Box(vertical: true, spacing: 2)
            for entry in cells { box.append(cell(entry)) }
            return box
        case .packed:
            // Lines filled in turn, each choice as wide as its label.
            let lines = Box(vertical: true, spacing: 2)
            var line = Box(vertical: false, spacing: 18)
            var used = 0
            for entry in cells {
                let width = entry.label.count + 4
                if used > 0, used + width > packedLineCharacters {
                    lines.append(line)
                    line = Box(vertical: false, spacing: 18)
                    used = 0
                }
                line.append(cell(entry))
                used += width
            }
            if used > 0 { lines.append(line) }
            return lines
        case .columns, .row:
            let grid = Grid(columnSpacing: 18, rowSpacing: 2)
            let columns = layout.columnCount(for: cells.count)
            for (index, entry) in cells.enumerated() {
                grid.attach(cell(entry), column: index % columns, row: index / columns)
            }
            return grid
        case .likert:
            let grid = Grid(columnSpacing: 6, rowSpacing: 4)
            grid.columnsAreHomogeneous = true
            for (index, entry) in cells.enumerated() {
                guard let button = entry.button else { continue }
                button.horizontalAlignment = .center
                grid.attach(button, column: index, row: 0)
                grid.attach(caption(entry.label), column: index, row: 1)
            }
            return grid
        case .labelsOnly, .buttonsOnly:
            let grid = Grid(columnSpacing: 0, rowSpacing: 4)
            grid.columnsAreHomogeneous = true
            for (index, entry) in cells.enumerated() {
                var row = 0
                if layout == .labelsOnly || header {
                    let label = caption(entry.label)
                    label.setMinimumSize(width: tableColumnWidth)
                    grid.attach(label, column: index, row: row)
                    row += 1
                }
                if let button = entry.button {
                    // The button centred in a column as wide as the header's.
                    let slot = Box(vertical: false)
                    slot.setMinimumSize(width: tableColumnWidth)
                    button.horizontalAlignment = .center
                    button.expandsHorizontally = true
                    slot.append(button)
                    grid.attach(slot, column: index, row: row)
                }
            }
            grid.horizontalAlignment = .start
            return grid
        }
    }
}
