import Foundation
import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

final class DateTimeControlTests: GtkTestCase {
    private static let survey = """
        | | type | name | label |
        | | date | visit | Visit |
        | | time | start | Start |
        | | dateTime | seen | Seen |
        """

    func testADateIsTypedOrPickedAndBothAreTheOneAnswer() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("visit", survey: Self.survey)
            defer { rendered.close() }
            let entry = try rendered.widget(Entry.self)
            let calendar = try rendered.widget(DatePicker.self)
            let pick = try rendered.widget(PopoverButton.self)
            XCTAssertEqual(entry.placeholder, "YYYY-MM-DD")
            XCTAssertEqual(entry.accessibleLabel, "Visit")
            XCTAssertEqual(calendar.accessibleLabel, "Visit")
            XCTAssertEqual(pick.accessibleLabel, "Pick a day for Visit")

            entry.text = "2026-11-27"
            XCTAssertEqual(rendered.state.value.value, "2026-11-27")
            let day = try XCTUnwrap(calendar.date)
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            let parts = Calendar(identifier: .gregorian).dateComponents([.year, .month, .day], from: day)
            XCTAssertEqual([parts.year, parts.month, parts.day], [2026, 11, 27])

            rendered.state.value.value = "2025-01-02"
            XCTAssertEqual(entry.text, "2025-01-02")
        }
    }

    func testATimeHasAnHourAndAMinuteNamedAfterTheQuestion() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("start", survey: Self.survey)
            defer { rendered.close() }
            XCTAssertTrue(rendered.all(DatePicker.self).isEmpty, "no day to pick")
            let spins = rendered.all(SpinButton.self)
            XCTAssertEqual(spins.map(\.accessibleLabel), ["Hour of Start", "Minute of Start"])
            XCTAssertEqual(try rendered.widget(Entry.self).placeholder, "HH:MM")

            rendered.state.value.value = "09:45"
            XCTAssertEqual(spins.map(\.value), [9, 45])
            spins[0].value = 10
            XCTAssertTrue(rendered.state.value.value.hasPrefix("10:45"), rendered.state.value.value)
        }
    }

    func testADateAndTimeHasBoth() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("seen", survey: Self.survey)
            defer { rendered.close() }
            XCTAssertEqual(rendered.all(DatePicker.self).count, 1)
            XCTAssertEqual(rendered.all(SpinButton.self).count, 2)
            XCTAssertEqual(try rendered.widget(Entry.self).placeholder, "YYYY-MM-DD HH:MM")
        }
    }

    func testMonthYearAndYear_areTyped_storedAsTheirFirstDay_withoutACalendar() throws {
        try MainActor.assumeIsolated {
            let survey = """
                | | type | name | label | appearance |
                | | date | month | Month | month-year |
                | | date | born | Born | year |
                | | date | plain | Plain | no-calendar |
                """
            let month = try RenderedQuestion("month", survey: survey)
            defer { month.close() }
            let entry = try month.widget(Entry.self)
            XCTAssertEqual(entry.placeholder, "YYYY-MM")
            XCTAssertTrue(month.all(PopoverButton.self).isEmpty, "a calendar picks days, not months")
            entry.text = "2025-7"
            XCTAssertEqual(month.state.value.value, "2025-07-01")
            month.state.value.value = "2024-12-01"
            XCTAssertEqual(entry.text, "2024-12")

            let born = try RenderedQuestion("born", survey: survey)
            defer { born.close() }
            let year = try born.widget(Entry.self)
            year.text = "1987"
            XCTAssertEqual(born.state.value.value, "1987-01-01")
            year.text = "87"
            XCTAssertFalse(born.state.inputError.value.isValid)
            XCTAssertEqual(born.state.value.value, "1987-01-01")

            let plain = try RenderedQuestion("plain", survey: survey)
            defer { plain.close() }
            XCTAssertTrue(plain.all(PopoverButton.self).isEmpty)
            XCTAssertTrue(plain.all(DatePicker.self).isEmpty)
            try plain.widget(Entry.self).text = "2026-01-31"
            XCTAssertEqual(plain.state.value.value, "2026-01-31")
        }
    }
}
