import FormEngine
import Foundation
@testable import SurveyFormApp
import TwoWayBinding
import XCTest

/// The built-in survey (Sources/SurveyFormApp/Resources/survey.md) as the app
/// runs it, a form like any other: the same bytes as the resource, its
/// answers in the CSV's order, each rule and message in English and German,
/// its live readouts and its six-line summary.
final class BuiltInSurveyTests: XCTestCase {
    private static let formURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/SurveyFormApp/Resources/survey.md")

    @MainActor private func survey(languages: [String] = []) throws -> FormViewModel {
        let definition = FormFile.builtIn.definition
        return try FormViewModel(
            plan: FormFile.builtIn.plan,
            language: FormViewModel.startLanguage(definition, preferring: languages)
        )
    }

    @MainActor private func verdict(_ name: String, _ value: String, languages: [String] = []) throws -> FieldValidation {
        let form = try survey(languages: languages)
        let state = try XCTUnwrap(form.state(named: name))
        state.value.value = value
        return state.validation.value
    }

    func testTheEmbeddedForm_isTheResourceFile() throws {
        XCTAssertEqual(BuiltInSurvey.data, try Data(contentsOf: Self.formURL))
    }

    @MainActor func testItOpensAsAFormWithABuiltInOrigin() async throws {
        let form = FormFile.builtIn
        XCTAssertEqual(form.origin, .builtIn)
        XCTAssertNil(form.path)
        XCTAssertEqual(form.id, "survey_form")
        XCTAssertEqual(form.version, "1")
        XCTAssertEqual(form.definition.languages, ["Deutsch (de)", "English (en)"])
    }

    @MainActor func testTheAnswersAreTheCSVColumnsInOrder() async throws {
        let form = try survey()
        let names = form.states.filter { $0.question.type.isAnswerable }.map(\.question.name)
        XCTAssertEqual(names, ["name", "company", "years_of_experience", "current_employer", "approx_salary", "comments"])
    }

    // MARK: - Rules and messages

    @MainActor func testTheName_isRequiredAfterTrimming_andAtMost200Characters() async throws {
        XCTAssertEqual(try verdict("name", ""), .invalid("Name is required."))
        XCTAssertEqual(try verdict("name", "  \t "), .invalid("Name is required."))
        XCTAssertEqual(try verdict("name", " Ada "), .valid)
        XCTAssertEqual(try verdict("name", String(repeating: "é", count: 200)), .valid, "characters, not bytes")
        XCTAssertEqual(try verdict("name", String(repeating: "a", count: 201)), .invalid("Name must be at most 200 characters."))
    }

    @MainActor func testAName_ofControlCharactersOrOtherSpacesOnly_isRequired() async throws {
        XCTAssertEqual(try verdict("name", "\u{1B}\u{7}\u{202E}"), .invalid("Name is required."))
        XCTAssertEqual(try verdict("name", "\u{00A0}\u{2003}\u{3000}"), .invalid("Name is required."))
        XCTAssertEqual(try verdict("name", "Ada\u{00A0}Lovelace"), .valid)
        XCTAssertEqual(
            try verdict("name", String(repeating: "\u{00A0}", count: 200) + "a"),
            .invalid("Name must be at most 200 characters."), "each space still counts as one character"
        )
    }

    @MainActor func testTheCompanyAndComments_areOptionalButBounded() async throws {
        XCTAssertEqual(try verdict("company", ""), .valid)
        XCTAssertEqual(try verdict("company", String(repeating: "c", count: 201)), .invalid("Company must be at most 200 characters."))
        XCTAssertEqual(try verdict("comments", "line one\nline two"), .valid)
        XCTAssertEqual(
            try verdict("comments", String(repeating: "x", count: 5_001)), .invalid("Comments must be at most 5000 characters.")
        )
    }

    @MainActor func testTheYears_withinRangeAndInHalves() async throws {
        for valid in ["", "0", "0.5", "12.5", "60"] {
            XCTAssertEqual(try verdict("years_of_experience", valid), .valid, valid)
        }
        for outside in ["-0.5", "60.5", "100"] {
            XCTAssertEqual(
                try verdict("years_of_experience", outside), .invalid("Years of experience must be between 0 and 60."), outside
            )
        }
        XCTAssertEqual(try verdict("years_of_experience", "12.3"), .invalid("Years of experience must be a multiple of 0.5."))
    }

    @MainActor func testTheSalary_withinRange_andTheEmployerAlwaysValid() async throws {
        XCTAssertEqual(try verdict("approx_salary", "85000"), .valid)
        XCTAssertEqual(try verdict("approx_salary", "500001"), .invalid("Approximate salary must be between 0 and 500,000."))
        XCTAssertEqual(try verdict("current_employer", "OK"), .valid)
        XCTAssertEqual(try verdict("current_employer", ""), .valid)
    }

    @MainActor func testABlankForm_hasOneProblem_theName() async throws {
        let form = try survey()
        XCTAssertFalse(form.isValid.value)
        XCTAssertEqual(form.firstProblem?.state.question.name, "name")
        XCTAssertEqual(form.firstProblem?.message, "Name is required.")
    }

    @MainActor func testTheMessages_areGerman_whenTheDesktopAsksForIt() async throws {
        let german = ["de_DE.UTF-8", "de_DE", "de", "C"]
        let cases: [(String, String, String)] = [
            ("name", "", "Bitte einen Namen angeben."),
            ("name", "   ", "Bitte einen Namen angeben."),
            ("name", String(repeating: "a", count: 201), "Der Name darf höchstens 200 Zeichen lang sein."),
            ("company", String(repeating: "c", count: 201), "Die Firma darf höchstens 200 Zeichen lang sein."),
            ("years_of_experience", "61", "Die Berufsjahre müssen zwischen 0 und 60 liegen."),
            ("years_of_experience", "1.2", "Die Berufsjahre müssen ein Vielfaches von 0,5 sein."),
            ("approx_salary", "-5", "Das ungefähre Gehalt muss zwischen 0 und 500.000 liegen."),
            ("comments", String(repeating: "x", count: 5_001), "Die Anmerkungen dürfen höchstens 5000 Zeichen lang sein."),
        ]
        for (name, value, message) in cases {
            XCTAssertEqual(try verdict(name, value, languages: german), .invalid(message), "\(name) = \(value.prefix(8))")
        }
        XCTAssertEqual(try verdict("name", "", languages: ["fr_FR.UTF-8", "fr"]), .invalid("Name is required."),
                       "English for a language the form lacks")
    }

    // MARK: - Live texts and the summary

    @MainActor func testTheReadouts_sayYearsAndThousands_inEachLanguage() async throws {
        let form = try survey()
        let years = try XCTUnwrap(form.state(named: "years_of_experience")?.readout)
        let salary = try XCTUnwrap(form.state(named: "approx_salary")?.readout)
        XCTAssertEqual(years.value, "", "unanswered")
        form.state(named: "years_of_experience")?.value.value = "12.5"
        form.state(named: "approx_salary")?.value.value = "85000"
        XCTAssertEqual(years.value, "12.5 yrs")
        XCTAssertEqual(salary.value, "85.0k")
        form.state(named: "years_of_experience")?.value.value = "5"
        form.state(named: "approx_salary")?.value.value = "500000"
        XCTAssertEqual(years.value, "5.0 yrs")
        XCTAssertEqual(salary.value, "500.0k")
        form.language.value = "Deutsch (de)"
        XCTAssertEqual(years.value, "5.0 J.")
        XCTAssertEqual(salary.value, "500.0 Tsd.")
    }

    @MainActor func testTheSummary_isSixLines_oneAnswerEach() async throws {
        let form = try survey()
        XCTAssertEqual(form.summary.value, """
            Name: --
            Company: --
            Years of experience: --
            Current employer: NO
            Approximate salary: --
            Comments: --
            """)
        form.restore([
            ("name", "  Ada Lovelace "), ("company", "Analytical Engines, Ltd."), ("years_of_experience", "12.5"),
            ("current_employer", "OK"), ("approx_salary", "85000"), ("comments", "Loves notes\nand a second line"),
        ])
        XCTAssertEqual(form.summary.value, """
            Name: Ada Lovelace
            Company: Analytical Engines, Ltd.
            Years of experience: 12.5 yrs
            Current employer: YES
            Approximate salary: 85.0k
            Comments: Loves notes
            and a second line
            """)
        form.state(named: "comments")?.value.value = String(repeating: "x", count: 100_000)
        XCTAssertTrue(form.summary.value.hasSuffix("Comments: " + String(repeating: "x", count: 5_000) + "…"),
                      "a pasted answer is cut for the summary")
    }

    @MainActor func testEachResponse_isNamedByItsNameAndCompany() async throws {
        let form = try survey()
        form.state(named: "name")?.value.value = "Ada"
        XCTAssertEqual(form.instanceName(), "Ada")
        form.state(named: "company")?.value.value = "Engines"
        XCTAssertEqual(form.instanceName(), "Ada — Engines")
    }
}
