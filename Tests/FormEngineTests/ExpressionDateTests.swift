import Foundation
import XCTest

@testable import FormEngine

/// ODK XForms' dates: the date and dateTime data types ("Data Types" in
/// `_sections/30-bindings.md`) and the date and time functions. The test context's clock
/// stands at 2023-11-14T22:13:20Z, a Tuesday.
final class ExpressionDateTests: XCTestCase {
    private var utc: ExpressionTestContext { ExpressionTestContext() }

    /// Two hours east of UTC, where it is already 2023-11-15.
    private var berlinSummer: ExpressionTestContext {
        var context = ExpressionTestContext()
        context.timeZone = TimeZone(secondsFromGMT: 2 * 3600)!
        return context
    }

    func testTodayAndNow() {
        check([
            ExpressionRow("string(today())", "2023-11-14"),
            ExpressionRow("number(today())", 19675.0),
            ExpressionRow("today()", .date(19675)),
            ExpressionRow("today() = '2023-11-14'", true),
            ExpressionRow("string(now())", "2023-11-14T22:13:20.000+00:00"),
            ExpressionRow("decimal-date-time(now())", .number(1_700_000_000.0 / 86400)),
            ExpressionRow("boolean(today())", true),
        ], in: utc)
        check([
            ExpressionRow("string(today())", "2023-11-15"),
            ExpressionRow("number(today())", 19676.0),
            ExpressionRow("string(now())", "2023-11-15T00:13:20.000+02:00"),
            ExpressionRow("decimal-date-time(now())", .number(1_700_000_000.0 / 86400)),
            ExpressionRow("format-date-time(now(), '%H:%M')", "00:13"),
        ], in: berlinSummer)
    }

    /// ODK XForms, `date()`: to the date data type, from a date, a date-time or days since 1970.
    func testDate() {
        check([
            ExpressionRow("string(date('2020-01-01'))", "2020-01-01"),
            ExpressionRow("number(date('2020-01-01'))", 18262.0),
            ExpressionRow("string(date(date('2020-01-01') + 1))", "2020-01-02"),
            ExpressionRow("string(date(0))", "1970-01-01"),
            ExpressionRow("string(date(-1))", "1969-12-31"),
            ExpressionRow("string(date(18262.9))", "2020-01-01"),
            ExpressionRow("string(date('18263'))", "2020-01-02"),
            ExpressionRow("string(date('2020-01-01T23:30:00-05:00'))", "2020-01-01"),
            ExpressionRow("string(date('2024-02-29'))", "2024-02-29"),
            ExpressionRow("string(date('1900-03-01') - 1)", "-25509"),
            ExpressionRow("string(date(date('1900-03-01') - 1))", "1900-02-28"),
            ExpressionRow("string(date(${d}))", ["d": "2021-07-04"], "2021-07-04"),
            ExpressionRow("date('')", ""),
            ExpressionRow("date('nonsense')", ""),
            ExpressionRow("date('2023-02-29')", ""),
            ExpressionRow("decimal-date('2020-01-02')", 18263.0),
            // Out of any calendar's reach: blank, not a crash.
            ExpressionRow("date(pow(10, 300))", ""),
            ExpressionRow("date(1 div 0)", ""),
            ExpressionRow("date-time(-pow(10, 300))", ""),
            ExpressionRow("format-date(pow(10, 300), '%Y')", ""),
        ], in: utc)
    }

    /// ODK XForms, the dateTime data type and `decimal-date-time()`, `decimal-time()`.
    func testDateTime() {
        check([
            ExpressionRow("string(date-time('2020-01-01T10:00:00+05:00'))", "2020-01-01T10:00:00.000+05:00"),
            ExpressionRow("string(date-time(1.5))", "1970-01-02T12:00:00.000+00:00"),
            ExpressionRow("string(date-time('2020-01-01'))", "2020-01-01T00:00:00.000+00:00"),
            ExpressionRow("string(date-time(date('2020-01-01')))", "2020-01-01T00:00:00.000+00:00"),
            ExpressionRow("date-time('')", ""),
            ExpressionRow("decimal-date-time('1970-01-02T12:00:00Z')", 1.5),
            ExpressionRow("decimal-date-time('2020-01-01T00:00:00+01:00')", .number(18262 - 1.0 / 24)),
            ExpressionRow("decimal-date-time('2020-01-01T00:00:00.250Z')", .number(18262 + 0.25 / 86400)),
            ExpressionRow("decimal-time('12:00:00')", 0.5),
            ExpressionRow("decimal-time('18:00:00.000')", 0.75),
            ExpressionRow("decimal-time('06:00')", 0.25),
            ExpressionRow("decimal-time('2020-01-01T06:00:00Z')", 0.25),
            ExpressionRow("decimal-time(1.25)", 0.25),
            ExpressionRow("decimal-time('')", ""),
        ], in: utc)
        check([
            ExpressionRow("string(date-time('2020-01-01'))", "2020-01-01T00:00:00.000+02:00"),
            ExpressionRow("string(date-time('2020-01-01T10:00:00'))", "2020-01-01T10:00:00.000+02:00"),
            ExpressionRow("number('2020-01-01T12:00:00')", .number(18262.5 - 2.0 / 24)),
            // A time with an offset is shown on the context's clock: 06:00 UTC is 08:00 here.
            ExpressionRow("decimal-time('06:00:00.000+00:00')", .number(1.0 / 3)),
            ExpressionRow("decimal-time('06:00:00.000Z')", .number(1.0 / 3)),
        ], in: berlinSummer)
    }

    /// ODK XForms, `format-date()` and `format-date-time()`.
    func testFormatDate() {
        check([
            ExpressionRow("format-date('2020-03-05', '%Y/%m/%d')", "2020/03/05"),
            ExpressionRow("format-date('2020-03-05', '%y %n %e')", "20 3 5"),
            ExpressionRow("format-date('2020-03-05', '%b %a')", "Mar Thu"),
            ExpressionRow("format-date('2021-12-26', '%a %e %b %Y')", "Sun 26 Dec 2021"),
            ExpressionRow("format-date-time('2020-03-05T07:08:09.012', '%H:%M:%S.%3 %h')", "07:08:09.012 7"),
            ExpressionRow("format-date-time('2020-03-05T17:08:09+05:00', '%H')", "17"),
            ExpressionRow("format-date(today(), '%Y-%m-%d')", "2023-11-14"),
            ExpressionRow("format-date-time(now(), '%H:%M')", "22:13"),
            ExpressionRow("format-date(date('2020-01-01') + 31, '%b')", "Feb"),
            ExpressionRow("format-date(${d}, '%d.%m.%Y')", ["d": "2024-05-01"], "01.05.2024"),
            ExpressionRow("format-date(${d}, '%d.%m.%Y')", ["d": ""], ""),
            ExpressionRow("format-date('2020-01-01', '100%')", "100%"),
            ExpressionRow("format-date('2020-01-01', 'on %Q')", "on %Q"),
            ExpressionRow("format-date('2005-01-01', '%y')", "05"),
        ], in: utc)
    }

    func testCivilDateRoundTripsOverFourCenturies() {
        var previous = CivilDate(days: -146_098)
        for days in -146_097...146_097 {
            let date = CivilDate(days: days)
            XCTAssertEqual(date.days, days)
            XCTAssertTrue(date.isValid, "\(date)")
            XCTAssertTrue(date.day == previous.day + 1 || date.day == 1)
            XCTAssertEqual(date.weekday, (previous.weekday + 1) % 7)
            previous = date
        }
        XCTAssertEqual(CivilDate(days: 0), CivilDate(year: 1970, month: 1, day: 1))
        XCTAssertEqual(CivilDate(days: 11_016), CivilDate(year: 2000, month: 2, day: 29))
    }
}
