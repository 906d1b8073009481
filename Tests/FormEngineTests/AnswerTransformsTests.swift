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
        answer.value = try hour.toModel(9).get()
        XCTAssertEqual(answer.value, "09:00", "picking the hour of a blank time")
        answer.value = try minute.toModel(5).get()
        XCTAssertEqual(answer.value, "09:05", "the minute keeps the hour")
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
        XCTAssertEqual(try minute.toModel(45).get(), "2024-03-08T09:45", "the day stays")

        answer.value = ""
        let picked = try hour.toModel(7).get()
        let today = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        let day = String(format: "%04d-%02d-%02d", today.year!, today.month!, today.day!)
        XCTAssertEqual(picked, day + "T07:00", "a time picked before the day takes today")
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
