import XCTest
import SurveyModel
import TwoWayBinding

final class SurveyValidatorTests: XCTestCase {
    @MainActor func testName_isRequiredAfterTrimming() async {
        XCTAssertEqual(SurveyValidator.name(""), .invalid("Name is required."))
        XCTAssertEqual(SurveyValidator.name("  \t "), .invalid("Name is required."))
        XCTAssertEqual(SurveyValidator.name(" Ada "), .valid)
    }

    @MainActor func testName_atMost200Characters() async {
        XCTAssertTrue(SurveyValidator.name(String(repeating: "a", count: 200)).isValid)
        XCTAssertEqual(
            SurveyValidator.name(String(repeating: "a", count: 201)).message,
            "Name must be at most 200 characters."
        )
    }

    @MainActor func testName_countsCharactersNotBytes() async {
        XCTAssertTrue(SurveyValidator.name(String(repeating: "é", count: 200)).isValid)
    }

    @MainActor func testCompany_optionalButAtMost200() async {
        XCTAssertTrue(SurveyValidator.companyName("").isValid)
        XCTAssertFalse(SurveyValidator.companyName(String(repeating: "c", count: 201)).isValid)
    }

    @MainActor func testComments_atMost5000() async {
        XCTAssertTrue(SurveyValidator.comments(String(repeating: "x", count: 5_000)).isValid)
        XCTAssertEqual(
            SurveyValidator.comments(String(repeating: "x", count: 5_001)).message,
            "Comments must be at most 5000 characters."
        )
    }

    @MainActor func testYears_withinRangeAndSteps() async {
        XCTAssertTrue(SurveyValidator.yearsOfExperience(nil).isValid)
        XCTAssertTrue(SurveyValidator.yearsOfExperience(0).isValid)
        XCTAssertTrue(SurveyValidator.yearsOfExperience(60).isValid)
        XCTAssertTrue(SurveyValidator.yearsOfExperience(12.5).isValid)
        XCTAssertFalse(SurveyValidator.yearsOfExperience(-0.5).isValid)
        XCTAssertFalse(SurveyValidator.yearsOfExperience(60.5).isValid)
        XCTAssertFalse(SurveyValidator.yearsOfExperience(.infinity).isValid)
        XCTAssertEqual(
            SurveyValidator.yearsOfExperience(12.3).message,
            "Years of experience must be a multiple of 0.5."
        )
    }

    @MainActor func testSalary_withinRange() async {
        XCTAssertTrue(SurveyValidator.approxSalary(nil).isValid)
        XCTAssertTrue(SurveyValidator.approxSalary(500_000).isValid)
        XCTAssertFalse(SurveyValidator.approxSalary(500_001).isValid)
        XCTAssertFalse(SurveyValidator.approxSalary(-1).isValid)
        XCTAssertFalse(SurveyValidator.approxSalary(.nan).isValid)
    }

    @MainActor func testValidate_coversEveryField() async {
        let result = SurveyValidator.validate(.empty)
        XCTAssertEqual(Set(result.keys), Set(SurveyField.allCases))
        XCTAssertEqual(result[.name], .invalid("Name is required."))
        XCTAssertEqual(result.values.filter { !$0.isValid }.count, 1)
    }
}
