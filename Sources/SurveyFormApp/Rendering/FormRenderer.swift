import FormEngine
import TwoWayBinding
import TwoWayBindingAdw
import TwoWayBindingGtk

/// Turns a running form into native widgets: groups become libadwaita
/// preferences groups (title and description), repeats a section per
/// instance with Add and Remove, each question a `QuestionCard` whose
/// control `ControlRegistry` chooses; a paged form (`field-list` groups)
/// shows a page at a time. Relevance shows and hides cards, groups and pages.
@MainActor
final class FormRenderer {
    private let viewModel: FormViewModel
    /// The vertical box the sections go into.
    private let page: Box
    private let bag = ObservationToken.Bag()
    /// How to focus each answerable question's control.
    private var focusers: [ObjectIdentifier: @MainActor () -> Void] = [:]
    /// Each card's question, by card (both held weakly: a repeat's
    /// instance removed takes its cards along).
    private var cardStates: [ObjectIdentifier: CardState] = [:]

    private struct CardState {
        weak var card: Widget?
        weak var state: QuestionState?
    }
    /// Moves focus to the next question (Enter on a control that has no
    /// other use for it).
    private let advanceFocus: @MainActor () -> Void
    /// The sections and repeat containers added to `page`, removed on reload.
    private var topLevelWidgets: [Widget] = []
    /// Tokens of each repeat's current instances, by repeat.
    private var repeatBags: [ObjectIdentifier: ObservationToken.Bag] = [:]
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

    /// Where the response's files go.
    private let files: ResponseFiles?

    /// Where the form's images, recordings and videos are.
    private let media: FormMedia

    init(viewModel: FormViewModel, page: Box, files: ResponseFiles?, media: FormMedia = .none, advanceFocus: @escaping @MainActor () -> Void) {
        self.media = media
        self.viewModel = viewModel
        self.page = page
        self.files = files
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
        cardStates = [:]
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
        _ states: [QuestionState], into box: Box, bag: ObservationToken.Bag, title: String? = nil
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
                section.widget.showWhile(group.isRelevant, bag: bag)
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
                container.showWhile(state.isRelevant, bag: bag)
                renderRepeat(state, repeatState, into: container, bag: bag)
                section = nil
                sectionGroup = nil
            default:
                guard let row = questionCard(state, bag: bag) else { continue }
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
    private func renderRepeat(_ state: QuestionState, _ repeatState: RepeatState, into container: Box, bag: ObservationToken.Bag) {
        let key = ObjectIdentifier(repeatState)
        repeatState.instances.observe(sendInitial: true) { [weak self, weak container] instances in
            guard let self, let container, container.pointer != nil else { return }
            repeatBags[key]?.cancelAll()
            let instanceBag = ObservationToken.Bag()
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
        _ = focusFirst(of: states)
    }

    /// Focuses the first question of `states` with a control that takes
    /// answers (not a read-only one), looking into repeats' instances (a
    /// page that opens with a repeat); says whether any.
    private func focusFirst(of states: [QuestionState]) -> Bool {
        for state in states where state.isRelevant.value {
            if !state.isReadOnly.value, let focus = focusers[ObjectIdentifier(state)] {
                focus()
                return true
            }
            if let instances = state.repeatState?.instances.value,
               instances.contains(where: { focusFirst(of: $0.states) }) {
                return true
            }
        }
        return false
    }

    // MARK: - Questions

    /// The question whose card holds `widget`, if any.
    func state(containing widget: Widget?) -> QuestionState? {
        guard let card = QuestionCard.containing(widget), let entry = cardStates[ObjectIdentifier(card)],
              entry.card === card else { return nil }
        return entry.state
    }

    /// `state`'s card, its control's focus noted for `focus(_:)`.
    private func questionCard(_ state: QuestionState, bag: ObservationToken.Bag) -> Widget? {
        let context = ControlContext(bag: bag, language: viewModel.language, advanceFocus: advanceFocus, files: files, media: media)
        guard let (card, control) = QuestionCard.make(for: state, context: context) else { return nil }
        if let control { focusers[ObjectIdentifier(state)] = control.focus }
        cardStates[ObjectIdentifier(card)] = CardState(card: card, state: state)
        return card
    }
}
