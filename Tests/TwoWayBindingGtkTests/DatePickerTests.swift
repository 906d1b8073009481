import CTwoWayBindingGtkShims
import Foundation
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// DatePicker: a `GtkCalendar` ↔ `Date?`, through `day-selected`.
final class DatePickerTests: GtkTestCase {
    private static func day(_ year: Int, _ month: Int, _ day: Int) -> Date {
        Calendar.current.date(from: DateComponents(year: year, month: month, day: day))!
    }

    /// As a click on a day would.
    @MainActor private static func pick(_ calendar: UnsafeMutablePointer<GtkWidget>, _ year: Int32, _ month: Int32, _ day: Int32) {
        let dateTime = g_date_time_new_local(year, month, day, 0, 0, 0)!
        gtk_calendar_select_day(OpaquePointer(calendar), dateTime)
        g_date_time_unref(dateTime)
        // A change of month alone is weighed once GTK is done with it.
        GtkTest.pump()
    }

    @MainActor private static func shownDay(_ calendar: UnsafeMutablePointer<GtkWidget>) -> [Int32] {
        let dateTime = gtk_calendar_get_date(OpaquePointer(calendar))!
        defer { g_date_time_unref(dateTime) }
        return [g_date_time_get_year(dateTime), g_date_time_get_month(dateTime), g_date_time_get_day_of_month(dateTime)]
    }

    func testBothWays_andNoDayIsNotToday() throws {
        try MainActor.assumeIsolated {
            let gtkCalendar = gtk_calendar_new()!
            let window = GtkTest.window(gtkCalendar)
            defer { GtkTest.destroy(window) }
            let birthday = Observable<Date?>(nil)
            let picker = try DatePicker.wrapping(gtkCalendar)
            picker.bind(with: birthday)
            XCTAssertNil(picker.date, "a calendar showing today has picked nothing")
            XCTAssertNil(birthday.value)

            let (token, notifications) = birthday.countNotifications()
            defer { token.cancel() }
            Self.pick(gtkCalendar, 1815, 12, 10)
            XCTAssertEqual(birthday.value, Self.day(1815, 12, 10))
            XCTAssertEqual(notifications.value, 1)

            birthday.value = Self.day(1906, 12, 9).addingTimeInterval(3600 * 15)
            XCTAssertEqual(Self.shownDay(gtkCalendar), [1906, 12, 9])
            XCTAssertEqual(picker.date, Self.day(1906, 12, 9), "the picker keeps days, not times")

            birthday.value = nil
            XCTAssertNil(picker.date)
            XCTAssertNil(birthday.value, "showing today for no date does not make today the answer")
        }
    }

    func testAnEntryAndADatePickerOnOneAnswer_agree() throws {
        try MainActor.assumeIsolated {
            let gtkEntry = gtk_entry_new()!
            let gtkCalendar = gtk_calendar_new()!
            let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            gtk_box_append(box.cast(to: GtkBox.self), gtkEntry)
            gtk_box_append(box.cast(to: GtkBox.self), gtkCalendar)
            let window = GtkTest.window(box)
            defer { GtkTest.destroy(window) }
            let answer = Observable("")
            try Entry.wrapping(gtkEntry).bind(with: answer)
            let toDay = ValueTransform<String, Date?>(
                toControl: { text in
                    let parts = text.split(separator: "-").compactMap { Int($0) }
                    guard parts.count == 3 else { return nil }
                    return Calendar.current.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
                },
                toModel: { date in
                    guard let date else { return .success("") }
                    let parts = Calendar.current.dateComponents([.year, .month, .day], from: date)
                    return .success(String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!))
                }
            )
            try DatePicker.wrapping(gtkCalendar).bind(with: answer, transform: toDay)

            Self.pick(gtkCalendar, 2024, 2, 29)
            XCTAssertEqual(answer.value, "2024-02-29")
            XCTAssertEqual(String(cString: gtk_editable_get_text(gtkEntry.opaque)), "2024-02-29", "the entry follows the calendar")

            gtk_editable_set_text(gtkEntry.opaque, "2025-07-04")  // as typing would
            XCTAssertEqual(answer.value, "2025-07-04")
            XCTAssertEqual(Self.shownDay(gtkCalendar), [2025, 7, 4], "the calendar follows the entry")
        }
    }

    private static func title(_ date: Date?) -> String {
        guard let date else { return "Pick a day" }
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: date)
        return "\(parts.year!)-\(parts.month!)-\(parts.day!)"
    }

    func testDatePickerInPopover_titleFollowsTheDay_andAPickClosesIt() {
        MainActor.assumeIsolated {
            let picker = DatePicker()
            let button = picker.inPopoverButton(title: Self.title)
            let window = GtkTest.window(button.pointer!, present: true)
            defer { GtkTest.destroy(window) }
            let birthday = Observable<Date?>(nil)
            picker.bind(with: birthday)
            XCTAssertEqual(button.label, "Pick a day")

            birthday.value = Self.day(1906, 12, 9)
            XCTAssertEqual(button.label, "1906-12-9", "the model's day is the title")
            XCTAssertFalse(button.isOpen)

            button.open()
            GtkTest.pump()
            XCTAssertTrue(button.isOpen)
            // As a click on a day would.
            let dateTime = g_date_time_new_local(1815, 12, 10, 0, 0, 0)!
            gtk_calendar_select_day(OpaquePointer(picker.pointer!), dateTime)
            g_date_time_unref(dateTime)
            GtkTest.pump()
            XCTAssertEqual(birthday.value, Self.day(1815, 12, 10))
            XCTAssertEqual(button.label, "1815-12-10")
            XCTAssertFalse(button.isOpen, "a picked day closes the popover")

            birthday.value = nil
            XCTAssertEqual(button.label, "Pick a day")
        }
    }

    func testOpeningAPopoverOffScreen_doesNothing() {
        MainActor.assumeIsolated {
            let picker = DatePicker()
            let button = picker.inPopoverButton(title: Self.title)
            // In a window never shown: GTK 4.8 would crash popping it up.
            let window = GtkTest.window(button.pointer!)
            defer { GtkTest.destroy(window) }
            button.open()
            XCTAssertFalse(button.isOpen)
        }
    }

    func testTheSameDayOfAnotherMonth_isAPick_butBrowsingIsNot() throws {
        try MainActor.assumeIsolated {
            let gtkCalendar = gtk_calendar_new()!
            let window = GtkTest.window(gtkCalendar)
            defer { GtkTest.destroy(window) }
            let day = Observable<Date?>(nil)
            try DatePicker.wrapping(gtkCalendar).bind(with: day)
            Self.pick(gtkCalendar, 2024, 2, 29)
            XCTAssertEqual(day.value, Self.day(2024, 2, 29))
            // GTK 4.8 says nothing of a new day here: only the month changes.
            Self.pick(gtkCalendar, 2024, 3, 29)
            XCTAssertEqual(day.value, Self.day(2024, 3, 29))
            Self.pick(gtkCalendar, 2025, 3, 29)
            XCTAssertEqual(day.value, Self.day(2025, 3, 29))

            // The calendar's first arrow shows the month before; nothing is picked.
            let arrow = try XCTUnwrap(Widget.descendant(of: gtkCalendar, ofType: gtk_button_get_type()))
            twb_signal_emit(arrow, "clicked")
            GtkTest.pump()
            XCTAssertEqual(Self.shownDay(gtkCalendar), [2025, 2, 28], "GTK moved its selection along")
            XCTAssertEqual(day.value, Self.day(2025, 3, 29), "browsing is not picking")
        }
    }
}
