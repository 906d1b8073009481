import FormEngine
import Foundation
import SurveyModel
import XCTest

/// The built-in survey's XLSForm (Sources/SurveyModel/Resources/survey.md), as the app embeds
/// it: the same bytes as the resource, runnable, in the CSV's order.
final class SurveyFormDefinitionTests: XCTestCase {
    private static let formURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/SurveyModel/Resources/survey.md")

    func testTheEmbeddedForm_isTheResourceFile() throws {
        XCTAssertEqual(BuiltInSurvey.data, try Data(contentsOf: Self.formURL))
    }

    @MainActor func testTheFormRuns_withNoProblems() async throws {
        XCTAssertEqual(FormPlan(BuiltInSurvey.definition).problems.map(\.description), [])
        XCTAssertEqual(BuiltInSurvey.definition.settings.id, "survey_form")
        XCTAssertEqual(BuiltInSurvey.definition.languages, ["Deutsch (de)", "English (en)"])
    }

    @MainActor func testTheQuestionsAreTheCSVColumnsInOrder() async throws {
        let form = try FormViewModel(definition: BuiltInSurvey.definition)
        let names = form.states.filter { $0.question.type.isAnswerable }.map(\.question.name)
        XCTAssertEqual(names, SurveyField.allCases.map(\.questionName))
        XCTAssertEqual(names, ["name", "company", "years_of_experience", "current_employer", "approx_salary", "comments"])
    }

    @MainActor func testTheViewModel_mirrorsTypedAnswersIntoTheForm() async throws {
        let viewModel = SurveyViewModel(preferredLanguages: [])
        viewModel.load(SurveyAnswers(
            name: "Ada", companyName: "Engines", yearsOfExperience: 12.5,
            isCurrentEmployer: true, approxSalary: 85_000, comments: "Fine"
        ))
        let answers = Dictionary(uniqueKeysWithValues: viewModel.form.answers().map { ($0.path, $0.value) })
        XCTAssertEqual(answers["name"], "Ada")
        XCTAssertEqual(answers["company"], "Engines")
        XCTAssertEqual(answers["years_of_experience"], "12.5")
        XCTAssertEqual(answers["current_employer"], "OK")
        XCTAssertEqual(answers["approx_salary"], "85000.0")
        XCTAssertEqual(answers["comments"], "Fine")
        viewModel.reset()
        XCTAssertEqual(viewModel.form.state(named: "years_of_experience")?.value.value, "")
        XCTAssertEqual(viewModel.form.state(named: "current_employer")?.value.value, "")
    }
}
