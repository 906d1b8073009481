import FormEngine
import Foundation
import TwoWayBinding
import XCTest

/// How text answers reach controls that show numbers and times, and back.
final class AnswerTransformsTests: XCTestCase {
    @MainActor func testANumberAnswerAndAnEmptySpinButton() async throws {
        let integer = ValueTransform<String, Double?>.number(wholeNumbers: true)
        XCTAssertNil(integer.toControl(""), "an unanswered question shows empty text, not 0")
        XCTAssertEqual(integer.toControl("42"), 42)
        XCTAssertEqual(try integer.toModel(42).get(), "42", "no fraction on a whole number")
        XCTAssertEqual(try integer.toModel(nil).get(), "")
        XCTAssertThrowsError(try integer.toModel(4.5).get())

        let decimal = ValueTransform<String, Double?>.number(wholeNumbers: false)
        XCTAssertEqual(try decimal.toModel(36.6).get(), "36.6")
        XCTAssertEqual(try decimal.toModel(37).get(), "37")
    }

    @MainActor func testTheHourAndMinuteOfATime() async throws {
        let answer = Observable("")
        let hour = ValueTransform<String, Double>.timeOfDay(.hour, in: answer, dateTime: false)
        let minute = ValueTransform<String, Double>.timeOfDay(.minute, in: answer, dateTime: false)
        XCTAssertEqual(hour.toControl(""), 0)
        let offset = TimeAnswer.offsetText(TimeZone.current.secondsFromGMT(for: Date()))
        answer.value = try hour.toModel(9).get()
        XCTAssertEqual(answer.value, "09:00:00.000" + offset, "picking the hour of a blank time, stored as Collect stores it")
        answer.value = try minute.toModel(5).get()
        XCTAssertEqual(answer.value, "09:05:00.000" + offset, "the minute keeps the hour")
        XCTAssertEqual(minute.toControl(answer.value), 5)

        answer.value = "14:30:15.000+02:00"
        XCTAssertEqual(try hour.toModel(15).get(), "15:30:15.000+02:00", "seconds and zone are kept")
        XCTAssertEqual(hour.toControl("nonsense"), 0)
    }

    @MainActor func testTheTimeOfADateTime() async throws {
        let answer = Observable("2024-03-08T09:30")
        let hour = ValueTransform<String, Double>.timeOfDay(.hour, in: answer, dateTime: true)
        let minute = ValueTransform<String, Double>.timeOfDay(.minute, in: answer, dateTime: true)
        XCTAssertEqual(hour.toControl(answer.value), 9)
        XCTAssertEqual(minute.toControl(answer.value), 30)
        let zone = TimeZone.current
        let march = try XCTUnwrap(Calendar.current.date(from: DateComponents(year: 2024, month: 3, day: 8, hour: 9)))
        XCTAssertEqual(try minute.toModel(45).get(), "2024-03-08T09:45:00.000" + TimeAnswer.offsetText(zone.secondsFromGMT(for: march)),
                       "the day stays; the offset is the time zone's on that day")

        answer.value = ""
        let picked = try hour.toModel(7).get()
        let today = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        let day = String(format: "%04d-%02d-%02d", today.year!, today.month!, today.day!)
        XCTAssertTrue(picked.hasPrefix(day + "T07:00:00.000"), "a time picked before the day takes today: \(picked)")
    }

    func testTimesAreStoredAsCollectStoresThemAndShownAsTyped() throws {
        let paris = try XCTUnwrap(TimeZone(identifier: "Europe/Paris"))
        let winter = Date(timeIntervalSince1970: 1_705_000_000)  // January 2024
        XCTAssertEqual(TimeAnswer.stored(time: "14:02", in: paris, on: winter), "14:02:00.000+01:00")
        XCTAssertEqual(TimeAnswer.stored(time: "14:02:30.5-05:00", in: paris, on: winter), "14:02:30.500-05:00", "a written offset is kept")
        XCTAssertNil(TimeAnswer.stored(time: "25:00", in: paris))
        XCTAssertEqual(TimeAnswer.stored(dateTime: "2024-07-01 09:30", in: paris), "2024-07-01T09:30:00.000+02:00", "summer time in July")
        XCTAssertEqual(TimeAnswer.stored(dateTime: "2024-01-01T09:30", in: paris), "2024-01-01T09:30:00.000+01:00")
        XCTAssertNil(TimeAnswer.stored(dateTime: "2024-02-30 09:30", in: paris))
        XCTAssertEqual(TimeAnswer.shown("14:02:00.000+01:00", type: .time), "14:02")
        XCTAssertEqual(TimeAnswer.shown("14:02:30.000+01:00", type: .time), "14:02:30")
        XCTAssertEqual(TimeAnswer.shown("2024-07-01T09:30:00.000+02:00", type: .dateTime), "2024-07-01 09:30")
        XCTAssertEqual(TimeAnswer.shown("14:02", type: .time), "14:02", "an answer stored by an older release reads the same")
        XCTAssertEqual(TimeAnswer.shown("soon", type: .time), "soon")
    }

    @MainActor func testARefusedNumberIsExplainedInTheUsersLanguage() async throws {
        let saved = Localization.translate
        defer { Localization.translate = saved }
        Localization.translate = { $0 == "Enter a whole number." ? "Geben Sie eine ganze Zahl ein." : $0 }
        let transform = ValueTransform<String, Double?>.number(wholeNumbers: true)
        guard case .failure(let error) = transform.toModel(2.5) else { return XCTFail("2.5 is no whole number") }
        XCTAssertEqual(error.message, "Geben Sie eine ganze Zahl ein.")
    }
}
