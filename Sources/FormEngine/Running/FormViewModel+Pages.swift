extension FormViewModel {
    /// Whether the form is shown a page at a time: its settings ask for
    /// `pages`, or a top-level group asks for a `field-list` (a
    /// `table-list` is one too).
    public var isPaged: Bool {
        if definition.settings.style?.split(separator: " ").contains("pages") == true { return true }
        return definition.questions.contains { question in
            question.type.isContainer && (question.hasAppearance("field-list") || question.hasAppearance("table-list"))
        }
    }

    /// The current response's rows split into pages, in form order: each
    /// top-level group or repeat a page of its own, and the rows between
    /// them a page together. Each page lists its rows flat, as `states` does.
    public func pages() -> [[QuestionState]] {
        var pages: [[QuestionState]] = []
        var current: [QuestionState] = []
        // The top-level group or repeat whose page is being filled, if any.
        var container: [String]?
        for state in states {
            let path = state.question.path
            if let open = container, path.starts(with: open), path.count > open.count {
                current.append(state)
                continue
            }
            container = nil
            if state.question.type.isContainer {
                if !current.isEmpty { pages.append(current) }
                current = [state]
                container = path
            } else {
                if current.first?.question.type.isContainer == true {
                    pages.append(current)
                    current = []
                }
                current.append(state)
            }
        }
        if !current.isEmpty { pages.append(current) }
        return pages
    }

    /// Whether a page has anything to show now: a relevant row that is seen
    /// (a question, a note, or a repeat), not only calculations.
    public func isShown(page: [QuestionState]) -> Bool {
        page.contains { state in
            let type = state.question.type
            let isSeen = type.isAnswerable && type != .hidden || type == .note || type == .repeatGroup
            return isSeen && state.isRelevant.value
        }
    }
}
