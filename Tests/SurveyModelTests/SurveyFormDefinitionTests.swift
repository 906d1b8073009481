import FormEngine
import Foundation
import SurveyModel
import TwoWayBinding
import XCTest

/// The built-in survey written as an XLSForm (Resources/forms/survey.md) says
/// what `SurveyValidator` says, answer for answer: the form that will replace
/// the hand-written rules keeps every one of them.
final class SurveyFormDefinitionTests: XCTestCase {
    private static let formURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources/forms/survey.md")

    @MainActor
    private func form() throws -> FormViewModel {
        try FormViewModel(definition: FormDefinition(contentsOf: Self.formURL))
    }

    @MainActor
    private func verdict(_ form: FormViewModel, _ name: String, _ answer: String) throws -> FieldValidation {
        let state = try XCTUnwrap(form.state(named: name))
        state.value.value = answer
        return state.validation.value
    }

    @MainActor func testTheQuestionsAreTheCSVColumnsInOrder() async throws {
        let names = try form().states.filter { $0.question.type.isAnswerable }.map(\.question.name)
        XCTAssertEqual(names, ["name", "company", "years_of_experience", "current_employer", "approx_salary", "comments"])
    }

    @MainActor func testTextRulesAgreeWithTheValidator() async throws {
        let form = try form()
        for name in ["", "   ", "\n\t", "Ada", " Ada ", String(repeating: "a", count: 200), String(repeating: "a", count: 201)] {
            XCTAssertEqual(try verdict(form, "name", name), SurveyValidator.name(name), "name \(name.debugDescription)")
        }
        for company in ["", "Engines", String(repeating: "b", count: 200), String(repeating: "b", count: 201)] {
            XCTAssertEqual(try verdict(form, "company", company), SurveyValidator.companyName(company))
        }
        for comments in ["", "line one\nline two", String(repeating: "c", count: 5_000), String(repeating: "c", count: 5_001)] {
            XCTAssertEqual(try verdict(form, "comments", comments), SurveyValidator.comments(comments))
        }
    }

    @MainActor func testNumberRulesAgreeWithTheValidator() async throws {
        let form = try form()
        let years: [Double?] = [nil, 0, 0.5, 12.5, 60, 60.5, -0.5, 12.3, 59.99, 100]
        for value in years {
            let answer = value.map { String($0) } ?? ""
            XCTAssertEqual(try verdict(form, "years_of_experience", answer), SurveyValidator.yearsOfExperience(value),
                           "years \(answer)")
        }
        let salaries: [Float?] = [nil, 0, 85_000, 500_000, 500_001, -1]
        for value in salaries {
            let answer = value.map { String(Double($0)) } ?? ""
            XCTAssertEqual(try verdict(form, "approx_salary", answer), SurveyValidator.approxSalary(value),
                           "salary \(answer)")
        }
    }
}
