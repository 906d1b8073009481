public import CTwoWayBindingGtkShims
public import Foundation
public import TwoWayBinding

/// A `GtkCalendar` bound to a `Date?`: the day picked, as the start of that
/// day in the local time zone, or `nil` until one is picked. Each day the
/// user selects is a commit.
///
/// A GTK calendar always has some day selected: with no date it shows today,
/// and reads back `nil` until the user picks a day.
public final class DatePicker: Widget, Bindable {
    public override class var gtkType: GType { gtk_calendar_get_type() }

    /// A new GtkCalendar, wrapped.
    public convenience init() {
        self.init(new: gtk_calendar_new())
    }

    private var calendar: OpaquePointer? { pointer.map(OpaquePointer.init) }
    private var picked: Date?
    // Set while the model's value is shown, whose own `day-selected` is no pick.
    private(set) var isShowingModelValue = false
    // Set when the arrows move the calendar to another month or year: the
    // day GTK then selects is shown, not picked.
    private var isBrowsing = false
    /// Told of each day the model shows: the popover button's title.
    var modelDateDidChange: (@MainActor (Date?) -> Void)?
    /// Told of each day the user picks, once the binding has it: the popover closes.
    var userDidPick: (@MainActor (Date?) -> Void)?

    /// The day picked, or `nil`.
    public var date: Date? {
        get { picked }
        set { updateValue(with: newValue) }
    }

    public func observingValue() -> Date? {
        picked
    }

    public func updateValue(with value: Date?) {
        picked = value.map(Self.startOfDay)
        modelDateDidChange?(picked)
        guard let calendar else { return }
        let parts = Foundation.Calendar.current.dateComponents([.year, .month, .day], from: value ?? Date())
        guard let year = parts.year, let month = parts.month, let day = parts.day,
              let dateTime = g_date_time_new_local(Int32(year), Int32(month), Int32(day), 0, 0, 0) else { return }
        defer { g_date_time_unref(dateTime) }
        isShowingModelValue = true
        defer { isShowingModelValue = false }
        gtk_calendar_select_day(calendar, dateTime)
    }

    public func observeUserChanges(_ handler: @escaping (ControlEvent) -> Void) -> ObservationToken {
        var connections = UserChangeConnections()
        // GTK 4.8 says `day-selected` only when the day of the month
        // changes: picking the 29th of another month when the 29th is
        // selected changes only the month and year. And the arrows that
        // browse to another month move the selection too, saying so
        // (`prev-month`, …) just after the change. So each change is
        // weighed once GTK is done with it: a pick unless it was browsing.
        for change in ["day-selected", "notify::month", "notify::year"] {
            connect(change, into: &connections) { [weak self] in
                guard let self, !isShowingModelValue else { return }
                isBrowsing = false
                _ = addIdle(priority: G_PRIORITY_HIGH_IDLE) { [weak self] in
                    guard let self, !isBrowsing, selectedDay() != picked else { return false }
                    picked = selectedDay()
                    handler(.committed)
                    userDidPick?(picked)
                    return false
                }
            }
        }
        for browse in ["prev-month", "next-month", "prev-year", "next-year"] {
            connect(browse, into: &connections) { [weak self] in self?.isBrowsing = true }
        }
        return token(for: connections)
    }

    /// The day the calendar has selected, whether or not the user picked it.
    func selectedDay() -> Date? {
        guard let calendar, let dateTime = gtk_calendar_get_date(calendar) else { return nil }
        defer { g_date_time_unref(dateTime) }
        let parts = DateComponents(
            year: Int(g_date_time_get_year(dateTime)), month: Int(g_date_time_get_month(dateTime)),
            day: Int(g_date_time_get_day_of_month(dateTime))
        )
        return Foundation.Calendar.current.date(from: parts)
    }

    private static func startOfDay(_ date: Date) -> Date {
        Foundation.Calendar.current.startOfDay(for: date)
    }
}

extension DatePicker {
    /// A button that shows the day picked through `title` and opens this
    /// calendar in a popover; picking a day closes it (browsing months does
    /// not). The title follows every change of the day, the user's or the
    /// model's. The calendar must be bound for its picks to be seen.
    public func inPopoverButton(title: @escaping (Date?) -> String) -> PopoverButton {
        let button = PopoverButton(label: title(date), content: [self])
        modelDateDidChange = { [weak button] date in button?.label = title(date) }
        userDidPick = { [weak button] date in
            button?.label = title(date)
            button?.close()
        }
        return button
    }
}
