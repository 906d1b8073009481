import CTwoWayBindingGtkShims
import Foundation
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// A calendar in a popover: the button's title follows the day, the user's
/// pick closes the popover, and the model is bound as to any calendar.
final class PopoverButtonTests: GtkTestCase {
    private static func day(_ year: Int, _ month: Int, _ day: Int) -> Date {
        Calendar.current.date(from: DateComponents(year: year, month: month, day: day))!
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

    func testIconButton_isNamedByItsTooltip_andHoldsItsContent() {
        MainActor.assumeIsolated {
            let hour = SpinButton(range: 0...23, step: 1)
            let button = PopoverButton(iconName: "document-open-recent-symbolic", tooltip: "Pick a time", content: [hour])
            let window = GtkTest.window(button.pointer!)
            defer { GtkTest.destroy(window) }
            XCTAssertEqual(button.accessibleLabel, "Pick a time")
            XCTAssertEqual(String(cString: gtk_widget_get_tooltip_text(button.pointer!)), "Pick a time")
            let popover = gtk_widget_get_ancestor(hour.pointer!, gtk_popover_get_type())
            XCTAssertNotNil(popover, "the content is in the button's popover")
            XCTAssertEqual(gtk_widget_get_ancestor(popover!, gtk_menu_button_get_type()), button.pointer)
        }
    }
}
