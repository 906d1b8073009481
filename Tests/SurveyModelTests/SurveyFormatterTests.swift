import XCTest
import FormEngine
import SurveyModel

final class SurveyFormatterTests: XCTestCase {
    @MainActor func testExperience_oneDecimalWithUnit() async {
        XCTAssertEqual(SurveyFormatter.experience(12), "12.0 yrs")
        XCTAssertEqual(SurveyFormatter.experience(12.5), "12.5 yrs")
        XCTAssertEqual(SurveyFormatter.experience(0), "0.0 yrs")
    }

    @MainActor func testExperience_unsetIsPlaceholder() async {
        XCTAssertEqual(SurveyFormatter.experience(nil), "--")
        XCTAssertEqual(SurveyFormatter.experience(.nan), "--")
    }

    @MainActor func testSalary_inThousandsWithOneDecimal() async {
        XCTAssertEqual(SurveyFormatter.salary(85_000), "85.0k")
        XCTAssertEqual(SurveyFormatter.salary(85_500), "85.5k")
        XCTAssertEqual(SurveyFormatter.salary(500_000), "500.0k")
        XCTAssertEqual(SurveyFormatter.salary(0), "0.0k")
    }

    @MainActor func testSalary_unsetIsPlaceholder() async {
        XCTAssertEqual(SurveyFormatter.salary(nil), "--")
    }

    @MainActor func testText_blankIsPlaceholderAndSpacesTrimmed() async {
        XCTAssertEqual(SurveyFormatter.text(""), "--")
        XCTAssertEqual(SurveyFormatter.text("   \n"), "--")
        XCTAssertEqual(SurveyFormatter.text("  Ada "), "Ada")
    }

    @MainActor func testSummary_oneAnswerPerLine() async {
        let answers = SurveyAnswers(
            name: "Ada", companyName: "Analytical Engines", yearsOfExperience: 12.5,
            isCurrentEmployer: true, approxSalary: 85_000, comments: "Enjoyed it"
        )
        XCTAssertEqual(
            SurveyFormatter.summary(answers),
            """
            Name: Ada
            Company: Analytical Engines
            Experience: 12.5 yrs
            Current Employer?: YES
            approx Salary: 85.0k
            Comments: Enjoyed it
            """
        )
    }

    @MainActor func testSummary_ofEmptyForm() async {
        XCTAssertEqual(
            SurveyFormatter.summary(.empty),
            "Name: --\nCompany: --\nExperience: --\nCurrent Employer?: NO\napprox Salary: --\nComments: --"
        )
    }

    @MainActor func testTranslatorIsUsed() async {
        let saved = Localization.translate
        defer { Localization.translate = saved }
        Localization.translate = { $0 == "YES" ? "JA" : $0 }
        XCTAssertEqual(SurveyFormatter.currentEmployer(true), "JA")
    }

    @MainActor func testText_onlyWhatNoValidAnswerReachesIsCut() async {
        let longestValid = String(repeating: "y", count: 5_000)
        XCTAssertEqual(SurveyFormatter.text(longestValid), longestValid, "the longest valid comments show whole")
        let pasted = String(repeating: "x", count: 100_000)
        XCTAssertEqual(SurveyFormatter.text(pasted), String(repeating: "x", count: 5_000) + "…")
    }
}
