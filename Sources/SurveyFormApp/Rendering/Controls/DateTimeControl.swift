import FormEngine
import TwoWayBinding
import TwoWayBindingGtk

/// A date, time or date and time: typed into an entry, or picked in a
/// popover beside it (a calendar for the day, spin buttons for the hour and
/// minute). Every control is bound to the one answer. `no-calendar` leaves
/// the entry alone; `month-year` and `year` ask for a month (`2024-03`) or a
/// year, typed, and store its first day, as Collect does.
@MainActor
enum DateTimeControl: QuestionControlKind {
    static func answers(_ question: Question) -> Bool {
        [.date, .time, .dateTime].contains(question.type)
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        let question = state.question
        let type = question.type
        let precision = question.datePrecision
        let entry = Entry()
        // Ctrl+Z is the form's, which undoes per question (EditHistory).
        entry.undoesTyping = false
        var options = ControlContext.options(for: state)
        // A month typed `2025-7` reads `2025-07` once the person moves on.
        options.reformatsOnCommit = precision != .day
        entry.bind(with: state.value, transform: .typed(type, precision: precision), options: options)
        entry.placeholder = placeholder(for: type, precision: precision)
        entry.onActivate { [advanceFocus = context.advanceFocus] in advanceFocus() }.keep(with: entry)
        // A calendar picks days: a month or a year is typed.
        if question.hasAppearance("no-calendar") || precision != .day {
            return QuestionControl(shown: entry, focusable: entry, validated: entry, labelled: [entry])
        }

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
        .store(in: context.bag)
        let line = Box(vertical: false, spacing: 6)
        entry.expandsHorizontally = true
        line.append(entry)
        line.append(pick)
        return QuestionControl(shown: line, focusable: entry, validated: entry, labelled: [entry])
    }

    /// How to write the answer, shown in the empty entry.
    static func placeholder(for type: QuestionType, precision: DatePrecision = .day) -> String {
        switch (type, precision) {
        case (.time, _): tr("HH:MM")
        case (.dateTime, _): tr("YYYY-MM-DD HH:MM")
        case (_, .month): tr("YYYY-MM")
        case (_, .year): tr("YYYY")
        default: tr("YYYY-MM-DD")
        }
    }
}
