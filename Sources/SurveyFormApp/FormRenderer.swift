import FormEngine
import TwoWayBinding
import TwoWayBindingAdw
import TwoWayBindingGtk

/// Turns a running form into native widgets: groups become libadwaita
/// preferences groups (title and description), each question a card holding
/// its label, hint, control and message, and every control bound two-way to its answer
/// through the binding library. Relevance shows and hides rows and groups,
/// `read_only` makes a control insensitive, `required` marks it.
///
/// A message shows what the view model's `shownValidation` says: once its
/// question was touched, or after a refused submit.
@MainActor
final class FormRenderer {
    private let viewModel: FormViewModel
    /// The vertical box the sections go into.
    private let page: Box
    private let bag = ObservationBag()
    /// How to focus each answerable question's control.
    private var focusers: [ObjectIdentifier: @MainActor () -> Void] = [:]
    /// Moves focus to the next question (Enter on a control that has no
    /// other use for it).
    private let advanceFocus: @MainActor () -> Void
    /// The sections and repeat containers added to `page`, removed on reload.
    private var topLevelWidgets: [Widget] = []
    /// Tokens of each repeat's current instances, by repeat.
    private var repeatBags: [ObjectIdentifier: ObservationBag] = [:]
    /// Each repeat's Add button, where focus goes when a Remove takes its own.
    private var addButtons: [ObjectIdentifier: Widget] = [:]

    /// A paged form's pages, each a box in `stack`, only the current one
    /// visible; empty when the whole form shows at once.
    private var pages: [(states: [QuestionState], box: Box)] = []
    private var stack: Box?
    /// Which pages have something to show; kept for its observer.
    private var pagesShown: Derived<[Bool]>?
    /// The page shown, of a paged form.
    private(set) var currentPage = 0
    /// Told when another page is shown, or a page comes or goes.
    var onPageChange: (() -> Void)?

    init(viewModel: FormViewModel, page: Box, advanceFocus: @escaping @MainActor () -> Void) {
        self.viewModel = viewModel
        self.page = page
        self.advanceFocus = advanceFocus
        guard viewModel.isPaged else {
            topLevelWidgets = render(viewModel.states, into: page, bag: bag).widgets
            return
        }
        // NB: a box of boxes, not a GtkStack: a stack's pages out of sight
        // stay in the accessibility tree, a hidden box's do not.
        let stack = Box(vertical: true)
        for states in viewModel.pages() {
            let box = Box(vertical: true, spacing: 24)
            box.isVisible = false
            stack.append(box)
            render(states, into: box, bag: bag)
            pages.append((states, box))
        }
        page.append(stack)
        self.stack = stack
        topLevelWidgets = [stack]
        show(page: shownPage(from: 0, step: 1) ?? 0)
        // Relevance decides which pages there are: derived from it, so that
        // it is read once it is up to date.
        let relevance = pages.flatMap { $0.states.compactMap(\.isRelevant.node) }
        if !relevance.isEmpty {
            let shown = Derived(from: relevance) { [unowned self] in pages.map { viewModel.isShown(page: $0.states) } }
            shown.observe { [weak self] _ in self?.onPageChange?() }.store(in: bag)
            pagesShown = shown
        }
    }

    // MARK: - Pages

    /// Whether the form is shown a page at a time.
    var isPaged: Bool { !pages.isEmpty }

    /// Whether a page with something to show comes before the current one.
    var hasPreviousPage: Bool { shownPage(from: currentPage - 1, step: -1) != nil }

    /// Whether a page with something to show follows the current one.
    var hasNextPage: Bool { shownPage(from: currentPage + 1, step: 1) != nil }

    /// The position of the current page among the pages shown now, and their number.
    var pagePosition: (page: Int, of: Int) {
        let shown = pages.indices.filter { viewModel.isShown(page: pages[$0].states) }
        return ((shown.firstIndex { $0 >= currentPage } ?? 0) + 1, shown.count)
    }

    /// Shows the next page, as ODK Collect does only when the answers on
    /// this one are acceptable; else shows their messages and focuses the
    /// first. Returns whether it moved.
    @discardableResult
    func goForward() -> Bool {
        commitTypedNumber()
        guard let next = shownPage(from: currentPage + 1, step: 1) else { return false }
        if let problem = viewModel.firstProblem(among: pages[currentPage].states) {
            viewModel.revealProblems(among: pages[currentPage].states)
            focus(problem.state)
            return false
        }
        show(page: next)
        focus(firstOf: pages[next].states.filter(\.isRelevant.value))
        return true
    }

    /// Shows the previous page.
    func goBack() {
        guard let previous = shownPage(from: currentPage - 1, step: -1) else { return }
        show(page: previous)
        focus(firstOf: pages[previous].states.filter(\.isRelevant.value))
    }

    private func shownPage(from start: Int, step: Int) -> Int? {
        var index = start
        while pages.indices.contains(index) {
            if viewModel.isShown(page: pages[index].states) { return index }
            index += step
        }
        return nil
    }

    private func show(page index: Int) {
        guard pages.indices.contains(index) else { return }
        pages[currentPage].box.isVisible = false
        currentPage = index
        pages[index].box.isVisible = true
        onPageChange?()
    }

    /// The page holding `state`, at any depth of repeats.
    private func pageIndex(of state: QuestionState) -> Int? {
        func holds(_ states: [QuestionState]) -> Bool {
            states.contains { candidate in
                candidate === state || (candidate.repeatState?.instances.value.contains { holds($0.states) } ?? false)
            }
        }
        return pages.indices.first { holds(pages[$0].states) }
    }

    /// Cuts every binding this renderer made and, unless the window is
    /// going (and takes them along), removes its widgets.
    func tearDown(removingWidgets: Bool = true) {
        bag.cancelAll()
        repeatBags.values.forEach { $0.cancelAll() }
        repeatBags = [:]
        if removingWidgets {
            for widget in topLevelWidgets { page.remove(widget) }
        }
        topLevelWidgets = []
        pages = []
        pagesShown = nil
        stack = nil
        focusers = [:]
    }

    /// Moves focus to `state`'s control, if it has one, showing its page.
    /// Commits a number typed into the focused spin button, which otherwise
    /// counts only on Enter or when focus leaves: for Submit and Next reached
    /// by a shortcut.
    func commitTypedNumber() {
        page.enclosingWindow?.focusedWidget?.ancestor(ofType: SpinButton.self)?.commitTypedText()
    }

    func focus(_ state: QuestionState) {
        if isPaged, let index = pageIndex(of: state), index != currentPage { show(page: index) }
        focusers[ObjectIdentifier(state)]?()
    }

    /// Moves focus to the first question shown, as when the window opens.
    func focusFirstQuestion() {
        let states = isPaged ? pages[currentPage].states : viewModel.states
        focus(firstOf: states.filter(\.isRelevant.value))
    }

    // MARK: - Sections

    /// Adds `states` (one scope's rows, flat, in form order) to `box` as
    /// sections; returns what it added, and the first section when it came
    /// first (a repeat instance's Remove goes on its title line).
    @discardableResult
    private func render(
        _ states: [QuestionState], into box: Box, bag: ObservationBag, title: String? = nil
    ) -> (widgets: [Widget], firstSection: PreferencesGroup?) {
        var added: [Widget] = []
        var firstSection: PreferencesGroup?
        var section: PreferencesGroup?
        // The innermost group the current section belongs to.
        var sectionGroup: QuestionState?
        var groups: [QuestionState] = []

        func newSection(for group: QuestionState?, titled: Bool) -> PreferencesGroup {
            let section = PreferencesGroup()
            box.append(section.widget)
            added.append(section.widget)
            if added.count == 1 { firstSection = section }
            if let group {
                if titled {
                    // Held by the observers, which the bag ends; once the widget
                    // is gone, setting its title does nothing.
                    group.label.observe(sendInitial: true) { [section] title in section.title = title }.store(in: bag)
                    group.hint.observe(sendInitial: true) { [section] hint in section.description = hint }.store(in: bag)
                }
                bindVisible(section.widget, to: group.isRelevant, bag: bag)
            } else if let title, added.count == 1 {
                section.title = title
            }
            return section
        }

        for state in states {
            let question = state.question
            // Leave groups this row is not inside.
            while let innermost = groups.last, !question.path.starts(with: innermost.question.path) {
                groups.removeLast()
            }
            switch question.type {
            case .group:
                groups.append(state)
                section = newSection(for: state, titled: true)
                sectionGroup = state
            case .repeatGroup:
                guard let repeatState = state.repeatState else { continue }
                let container = Box(vertical: true, spacing: 24)
                box.append(container)
                added.append(container)
                bindVisible(container, to: state.isRelevant, bag: bag)
                renderRepeat(state, repeatState, into: container, bag: bag)
                section = nil
                sectionGroup = nil
            default:
                guard let row = questionRow(state, bag: bag) else { continue }
                if section == nil || sectionGroup !== groups.last {
                    section = newSection(for: groups.last, titled: false)
                    sectionGroup = groups.last
                }
                section?.add(row)
            }
        }
        return (added, firstSection)
    }

    /// A repeat: each instance a section with Remove, then Add; rebuilt as
    /// instances come and go.
    private func renderRepeat(_ state: QuestionState, _ repeatState: RepeatState, into container: Box, bag: ObservationBag) {
        let key = ObjectIdentifier(repeatState)
        repeatState.instances.observe(sendInitial: true) { [weak self, weak container] instances in
            guard let self, let container, container.pointer != nil else { return }
            repeatBags[key]?.cancelAll()
            let instanceBag = ObservationBag()
            repeatBags[key] = instanceBag
            container.removeAll()
            let label = state.label.value
            for (offset, instance) in instances.enumerated() {
                let title = String(format: tr("%@ %d"), label, Int32(offset + 1))
                let rendered = render(instance.states, into: container, bag: instanceBag, title: title)
                if !repeatState.isCountFixed, let first = rendered.firstSection {
                    let remove = Button(iconName: "user-trash-symbolic", tooltip: String(format: tr("Remove %@ %d"), label, Int32(offset + 1)))
                    remove.onClicked { [weak self, weak repeatState] in
                        repeatState?.remove(at: offset)
                        // The button went with its instance: focus stays in the repeat.
                        self?.addButtons[key]?.grabFocus()
                    }
                    .store(in: instanceBag)
                    first.setHeaderSuffix(remove)
                }
            }
            if !repeatState.isCountFixed {
                let add = Button(label: String(format: tr("Add %@"), label))
                add.horizontalAlignment = .start
                add.onClicked { [weak self, weak repeatState] in
                    guard let instance = repeatState?.add() else { return }
                    // The new instance's first question, once it is built.
                    self?.focus(firstOf: instance.states)
                }
                .store(in: instanceBag)
                container.append(add)
                addButtons[key] = add
            }
        }
        .store(in: bag)
    }

    private func focus(firstOf states: [QuestionState]) {
        for state in states {
            if let focus = focusers[ObjectIdentifier(state)] { return focus() }
        }
    }

    // MARK: - Questions

    /// A row for a question the respondent sees, or `nil` for one computed
    /// or filled in by the app (calculate, hidden, metadata).
    private func questionRow(_ state: QuestionState, bag: ObservationBag) -> Widget? {
        let question = state.question
        guard question.type.isAnswerable || question.type == .note, !question.type.isMetadata,
              question.type != .hidden else { return nil }

        // NB: a card, not a GtkListBox row: a list box hands Tab only to the
        // very next row, so a note or a read-only question (nothing to focus)
        // would send Tab out of the whole group.
        let card = Box(vertical: true)
        card.addStyleClass("card")
        card.addStyleClass(Self.questionStyleClass)
        card.setMargins(bottom: 12)
        let box = Box(vertical: true, spacing: 6)
        box.setMargins(top: 12, bottom: 12, start: 12, end: 12)
        card.append(box)
        bindVisible(card, to: state.isRelevant, bag: bag)

        let title = Label()
        title.wrapsWords = true
        let required = state.isRequired
        if let node = required.node {
            title.show(Derived(from: [state.label, node]) { Self.title(state.label.value, required: required.value) })
        } else {
            title.show(state.label, format: { Self.title($0, required: required.value) })
        }
        box.append(title)

        let hint = Label()
        hint.wrapsWords = true
        hint.addStyleClass("dim-label")
        hint.addStyleClass("caption")
        hint.show(state.hint)
        state.hint.observe(sendInitial: true) { [weak hint] in hint?.isVisible = !$0.isEmpty }.store(in: bag)
        box.append(hint)

        guard question.type != .note, let control = makeControl(for: state, bag: bag) else {
            return card
        }
        box.append(control.shown)

        let message = Label()
        message.wrapsWords = true
        message.addStyleClass("error")
        message.addStyleClass("caption")
        message.isVisible = false
        box.append(message)

        focusers[ObjectIdentifier(state)] = control.focus
        control.validated.showValidation(state.shownValidation, message: message)

        for widget in control.labelled {
            state.label.observe(sendInitial: true) { [weak widget] in widget?.accessibleLabel = $0 }.store(in: bag)
            let hint = state.hint, required = state.isRequired
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
        state.isReadOnly.observe(sendInitial: true) { [weak control = control.shown] in control?.isSensitive = !$0 }?
            .store(in: bag)
        return card
    }

    private static func title(_ label: String, required: Bool) -> String {
        required ? label + " *" : label
    }

    /// What a screen reader reads after a question's label: that it is
    /// required (GTK 4.8 puts no required state on the accessibility bus),
    /// then its hint.
    private static func description(_ hint: String, required: Bool) -> String? {
        let parts = [required ? tr("Required") : nil, hint.isEmpty ? nil : hint].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: "\n")
    }

    /// The widgets one question shows: `shown` goes into the row, `focus`
    /// moves focus to it, `validated` carries the error style, `labelled` are
    /// named by the question's label for a screen reader.
    private struct Control {
        var shown: Widget
        var focus: @MainActor () -> Void
        var validated: Widget
        var labelled: [Widget]

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

    private func makeControl(for state: QuestionState, bag: ObservationBag) -> Control? {
        let question = state.question
        let options = BindingOptions(validation: state.inputError)
        switch question.type {
        case .text where question.appearance?.contains("multiline") == true:
            let text = TextView()
            // NB: word-char wrapping lays out a long unbroken paste in
            // seconds (GTK 4.8, Pango 1.50); word wrapping in milliseconds.
            text.wrapsWords = true
            // Tab leaves the question, as everywhere else in the form.
            text.acceptsTab = false
            let scrolled = ScrolledWindow(child: text, hasFrame: true, minimumHeight: 80)
            text.bind(with: state.value, options: options)
            return Control(shown: scrolled, focusable: text, validated: text, labelled: [text])
        case .integer, .decimal:
            if let range = question.constrainedRange {
                return numberSpinButton(for: state, range: range, options: options)
            }
            fallthrough
        case .text, .date, .time, .dateTime:
            let entry = Entry()
            if question.type == .text {
                entry.bind(with: state.value, options: options)
            } else {
                entry.bind(with: state.value, transform: .typed(question.type), options: options)
                if let placeholder = Self.placeholder(for: question.type) { entry.placeholder = placeholder }
                if question.type == .integer || question.type == .decimal {
                    entry.inputPurpose = question.type == .integer ? .digits : .number
                }
            }
            entry.onActivate { [advanceFocus] in advanceFocus() }.keep(with: entry)
            if question.type == .date || question.type == .time || question.type == .dateTime {
                return picking(entry, for: state, bag: bag)
            }
            return Control(shown: entry, focusable: entry, validated: entry, labelled: [entry])
        case .range:
            guard let parameters = question.rangeParameters else { return nil }
            let lower = min(parameters.start, parameters.end), upper = max(parameters.start, parameters.end)
            let scale = Scale(range: lower...upper, step: abs(parameters.step))
            // The value shows in a label of its own beside the scale.
            scale.showsValue = false
            scale.expandsHorizontally = true
            scale.bind(with: state.value, transform: .range(start: parameters.start, step: parameters.step), options: options)
            let value = Label()
            value.show(state.value, format: { $0.isEmpty ? "–" : $0 })
            value.setMinimumSize(width: 48)
            let line = Box(vertical: false, spacing: 12)
            line.append(scale)
            line.append(value)
            movesOnWithEnter(scale, bag: bag)
            return Control(shown: line, focusable: scale, validated: scale, labelled: [scale])
        case .acknowledge:
            let toggle = Switch()
            toggle.horizontalAlignment = .start
            toggle.bind(with: state.value, transform: .acknowledgement, options: options)
            // Space turns it on or off; Enter leaves it as it is.
            movesOnWithEnter(toggle, bag: bag)
            return Control(shown: toggle, focusable: toggle, validated: toggle, labelled: [toggle])
        case .selectOne where question.appearance?.contains("minimal") == true:
            return dropDown(for: state, bag: bag)
        case .selectOne, .selectMultiple:
            return choiceButtons(for: state, multiple: question.type == .selectMultiple, bag: bag)
        default:
            return nil
        }
    }

    /// A number whose constraint sets its range: a spin button offering that
    /// range, empty while unanswered. A number outside it is refused with the
    /// constraint's message rather than clamped into it.
    private func numberSpinButton(for state: QuestionState, range: ClosedRange<Double>, options: BindingOptions) -> Control {
        let wholeNumbers = state.question.type == .integer
        let digits = wholeNumbers ? 0 : max(2, Self.decimalPlaces(of: range.lowerBound), Self.decimalPlaces(of: range.upperBound))
        let step = wholeNumbers || range.upperBound - range.lowerBound > 10 ? 1 : 0.1
        let spin = SpinButton(range: range, step: step)
        spin.digits = digits
        // Letters reach the spin button, to be refused with the form's message.
        spin.acceptsOnlyDigits = false
        spin.notANumberMessage = { [weak state] text in state?.typeProblem(text) ?? "" }
        spin.outOfRangeMessage = { [weak state] _ in state?.constraintProblem() ?? "" }
        spin.allowingEmpty.bind(with: state.value, transform: .number(wholeNumbers: wholeNumbers), options: options)
        // Enter reaches the spin button's text, after the binding has taken it.
        spin.onActivate { [advanceFocus] in advanceFocus() }.keep(with: spin)
        return Control(shown: spin, focusable: spin, validated: spin, labelled: [spin])
    }

    private static func decimalPlaces(of number: Double) -> Int {
        let written = String(number)
        guard !written.contains("e"), let point = written.firstIndex(of: ".") else { return 0 }
        let fraction = written[written.index(after: point)...]
        return fraction == "0" ? 0 : fraction.count
    }

    /// A date or time typed into `entry`, or picked in a popover beside it:
    /// a calendar for the day, spin buttons for the hour and minute. Every
    /// control is bound to the one answer.
    private func picking(_ entry: Entry, for state: QuestionState, bag: ObservationBag) -> Control {
        let type = state.question.type
        var content: [Widget] = []
        // Each control in the popover is named after the question.
        var namers: [@MainActor (String) -> Void] = []
        if type == .date || type == .dateTime {
            let calendar = DatePicker()
            calendar.bind(with: state.value, transform: .calendarDay(in: state.value, keepingTime: type == .dateTime))
            content.append(calendar)
            namers.append { [weak calendar] label in calendar?.accessibleLabel = label }
        }
        if type == .time || type == .dateTime {
            let time = Box(vertical: false, spacing: 6)
            time.horizontalAlignment = .center
            for (part, upper, name) in [(TimeOfDayPart.hour, 23.0, tr("Hour of %@")), (.minute, 59, tr("Minute of %@"))] {
                if part == .minute { time.append(Label(":")) }
                let spin = SpinButton(range: 0...upper, step: 1)
                spin.wraps = true
                spin.isVertical = true
                spin.bind(with: state.value, transform: .timeOfDay(part, in: state.value, dateTime: type == .dateTime))
                time.append(spin)
                namers.append { [weak spin] label in spin?.accessibleLabel = String(format: name, label) }
            }
            content.append(time)
        }
        let picksDay = type != .time
        let pick = PopoverButton(
            iconName: picksDay ? "x-office-calendar-symbolic" : "document-open-recent-symbolic",
            tooltip: picksDay ? tr("Pick a Day") : tr("Pick a Time"), content: content
        )
        state.label.observe(sendInitial: true) { [weak pick] label in
            pick?.accessibleLabel = String(format: picksDay ? tr("Pick a day for %@") : tr("Pick a time for %@"), label)
            for namer in namers { namer(label) }
        }
        .store(in: bag)
        let line = Box(vertical: false, spacing: 6)
        entry.expandsHorizontally = true
        line.append(entry)
        line.append(pick)
        return Control(shown: line, focusable: entry, validated: entry, labelled: [entry])
    }

    /// Marks each question's card, so that Enter moves on past every other
    /// control of the same question (a date's picker, the rest of a group of
    /// choices), where Tab stops at each.
    private static let questionStyleClass = "survey-form-question"

    /// The card of the question `widget` belongs to, if any.
    static func question(containing widget: Widget?) -> Widget? {
        widget?.ancestor(withStyleClass: questionStyleClass)
    }

    /// Enter on `control` moves to the next question, where GTK would
    /// otherwise toggle it or do nothing.
    private func movesOnWithEnter(_ control: Widget, bag: ObservationBag) {
        control.onEnter { [advanceFocus] in
            advanceFocus()
            return true
        }
        .store(in: bag)
    }

    private static func placeholder(for type: QuestionType) -> String? {
        switch type {
        case .date: tr("YYYY-MM-DD")
        case .time: tr("HH:MM")
        case .dateTime: tr("YYYY-MM-DD HH:MM")
        default: nil
        }
    }

    /// Check buttons, one per choice offered now (radio buttons for a
    /// select_one), rebuilt when `choice_filter` or the language changes them.
    private func choiceButtons(for state: QuestionState, multiple: Bool, bag: ObservationBag) -> Control? {
        guard let choices = state.choices else { return nil }
        let box = Box(vertical: true, spacing: 2)
        let holder = Box(vertical: true)
        holder.append(box)
        let language = viewModel.language
        var buttons: [CheckButton] = []
        let rebuild = { [weak box] in
            guard let box else { return }
            box.removeAll()
            buttons = []
            for choice in choices.value {
                let label = choice.label.text(in: language.value) ?? choice.name
                let button = CheckButton(label: label)
                if !multiple, let leader = buttons.first { button.joinGroup(of: leader) }
                button.bind(with: state.value, transform: .choice(choice.name, in: state.value, multiple: multiple))
                box.append(button)
                buttons.append(button)
            }
        }
        rebuild()
        choices.observeChange { rebuild() }.store(in: bag)
        language.observeChange { rebuild() }.store(in: bag)
        // Enter picks the focused choice of a select_one, then moves on; in a
        // select_multiple Space ticks, and Enter moves on leaving the ticks.
        holder.onEnter { [advanceFocus] in
            if !multiple, let focused = buttons.first(where: \.hasFocus) { focused.isChecked = true }
            advanceFocus()
            return true
        }
        .store(in: bag)
        // Focus goes to the chosen button, else the first.
        let focus: @MainActor () -> Void = { _ = (buttons.first { $0.isChecked } ?? buttons.first)?.grabFocus() }
        return Control(shown: holder, focus: focus, validated: box, labelled: [box])
    }

    /// A drop-down of the choices offered now (`minimal`).
    private func dropDown(for state: QuestionState, bag: ObservationBag) -> Control? {
        guard let choices = state.choices else { return nil }
        let language = viewModel.language
        let dropDown = DropDown()
        dropDown.horizontalAlignment = .start
        let titles = ObservableList<String>()
        dropDown.showItems(titles) { $0 }.store(in: bag)
        let fill = { [weak dropDown] in
            guard let dropDown else { return }
            // The old binding must not read the emptied list as the user's choice.
            dropDown.binder = nil
            titles.replaceAll(with: choices.value.map { $0.label.text(in: language.value) ?? $0.name })
            // The binding shows the answer again in the new list.
            dropDown.bind(with: state.value, transform: Self.choiceIndex(in: choices), options: BindingOptions(validation: state.inputError))
        }
        fill()
        choices.observeChange { fill() }.store(in: bag)
        language.observeChange { fill() }.store(in: bag)
        // Enter opens the list, as in every GTK drop-down; Enter on a choice
        // in it picks it, and then moves on to the next question.
        dropDown.onEnterInList { [weak dropDown, advanceFocus] in
            // After the list has picked the choice and closed.
            Task { @MainActor [weak dropDown] in
                dropDown?.grabFocus()
                advanceFocus()
            }
            return false
        }
        .store(in: bag)
        return Control(shown: dropDown, focusable: dropDown, validated: dropDown, labelled: [dropDown])
    }

    /// A choice's name ↔ its position among the choices offered now.
    private static func choiceIndex(in choices: Derived<[Choice]>) -> ValueTransform<String, Int?> {
        ValueTransform(
            toControl: { name in choices.value.firstIndex { $0.name == name } },
            toModel: { index in
                guard let index, choices.value.indices.contains(index) else { return .success("") }
                return .success(choices.value[index].name)
            }
        )
    }

    // MARK: - Helpers

    private func bindVisible(_ wrapper: Widget, to relevance: ObservableBool, bag: ObservationBag) {
        // A hidden question must be invisible, not merely unrevealed: only
        // then does it leave the accessibility tree and the focus chain.
        wrapper.isVisible = relevance.value
        relevance.observe { [weak wrapper] in wrapper?.isVisible = $0 }?.store(in: bag)
    }
}
