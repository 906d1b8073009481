import SurveyModel
import TwoWayBinding
import XCTest

/// The survey's rules and messages, which come from its XLSForm, seen through
/// the view model the window binds to: each rule in English and in German.
final class SurveyViewModelValidationTests: XCTestCase {
    @MainActor
    private func verdict<Value>(
        _ field: SurveyField, _ answer: KeyPath<SurveyViewModel, Observable<Value>>, _ value: Value,
        languages: [String] = []
    ) -> FieldValidation {
        let viewModel = SurveyViewModel(preferredLanguages: languages)
        viewModel[keyPath: answer].value = value
        return viewModel.validation(for: field).value
    }

    @MainActor func testName_isRequiredAfterTrimming() async {
        XCTAssertEqual(verdict(.name, \.name, ""), .invalid("Name is required."))
        XCTAssertEqual(verdict(.name, \.name, "  \t "), .invalid("Name is required."))
        XCTAssertEqual(verdict(.name, \.name, "\n"), .invalid("Name is required."))
        XCTAssertEqual(verdict(.name, \.name, " Ada "), .valid)
    }

    @MainActor func testName_atMost200Characters() async {
        XCTAssertEqual(verdict(.name, \.name, String(repeating: "a", count: 200)), .valid)
        XCTAssertEqual(
            verdict(.name, \.name, String(repeating: "a", count: 201)),
            .invalid("Name must be at most 200 characters.")
        )
    }

    @MainActor func testName_ofControlCharactersOnly_isRequired() async {
        XCTAssertEqual(verdict(.name, \.name, "\u{1B}\u{7}\u{202E}"), .invalid("Name is required."))
    }

    @MainActor func testName_ofUnicodeSpacesOnly_isRequired_asTheStoredNameWouldBeBlank() async {
        XCTAssertEqual(verdict(.name, \.name, "\u{00A0}\u{2003}\u{3000}"), .invalid("Name is required."))
        XCTAssertEqual(verdict(.name, \.name, "Ada\u{00A0}Lovelace"), .valid)
        XCTAssertEqual(
            verdict(.name, \.name, String(repeating: "\u{00A0}", count: 200) + "a"),
            .invalid("Name must be at most 200 characters."), "each space still counts as one character"
        )
    }

    @MainActor func testAResponse_losesControlAndBidiCharacters_keepsLineBreaksInComments() async throws {
        let viewModel = SurveyViewModel(preferredLanguages: [])
        viewModel.name.value = "Ada\u{1B}]0;pwned\u{7} Lovelace\u{202E}"
        viewModel.companyName.value = "Engines\u{85}\nLtd"
        viewModel.comments.value = "one\ttwo\nthree\u{0}\u{2069}"
        let response = try XCTUnwrap(viewModel.makeResponse())
        XCTAssertEqual(response.answers.name, "Ada]0;pwned Lovelace")
        XCTAssertEqual(response.answers.companyName, "EnginesLtd")
        XCTAssertEqual(response.answers.comments, "one\ttwo\nthree")
    }

    @MainActor func testName_countsCharactersNotBytes() async {
        XCTAssertEqual(verdict(.name, \.name, String(repeating: "é", count: 200)), .valid)
    }

    @MainActor func testCompany_optionalButAtMost200() async {
        XCTAssertEqual(verdict(.companyName, \.companyName, ""), .valid)
        XCTAssertEqual(verdict(.companyName, \.companyName, String(repeating: "c", count: 200)), .valid)
        XCTAssertEqual(
            verdict(.companyName, \.companyName, String(repeating: "c", count: 201)),
            .invalid("Company must be at most 200 characters.")
        )
    }

    @MainActor func testComments_atMost5000() async {
        XCTAssertEqual(verdict(.comments, \.comments, "line one\nline two"), .valid)
        XCTAssertEqual(verdict(.comments, \.comments, String(repeating: "x", count: 5_000)), .valid)
        XCTAssertEqual(
            verdict(.comments, \.comments, String(repeating: "x", count: 5_001)),
            .invalid("Comments must be at most 5000 characters.")
        )
    }

    @MainActor func testYears_withinRangeAndSteps() async {
        for valid: Double? in [nil, 0, 0.5, 12.5, 60] {
            XCTAssertEqual(verdict(.yearsOfExperience, \.yearsOfExperience, valid), .valid, "\(String(describing: valid))")
        }
        for outside: Double in [-0.5, 60.5, 100] {
            XCTAssertEqual(
                verdict(.yearsOfExperience, \.yearsOfExperience, outside),
                .invalid("Years of experience must be between 0 and 60."), "\(outside)"
            )
        }
        for between: Double in [12.3, 59.99] {
            XCTAssertEqual(
                verdict(.yearsOfExperience, \.yearsOfExperience, between),
                .invalid("Years of experience must be a multiple of 0.5."), "\(between)"
            )
        }
        XCTAssertFalse(verdict(.yearsOfExperience, \.yearsOfExperience, .infinity).isValid)
    }

    @MainActor func testSalary_withinRange() async {
        for valid: Float? in [nil, 0, 85_000, 500_000] {
            XCTAssertEqual(verdict(.approxSalary, \.approxSalary, valid), .valid, "\(String(describing: valid))")
        }
        for outside: Float in [500_001, -1] {
            XCTAssertEqual(
                verdict(.approxSalary, \.approxSalary, outside),
                .invalid("Approximate salary must be between 0 and 500,000."), "\(outside)"
            )
        }
        XCTAssertFalse(verdict(.approxSalary, \.approxSalary, .nan).isValid)
    }

    @MainActor func testCurrentEmployer_isAlwaysValid() async {
        XCTAssertEqual(verdict(.isCurrentEmployer, \.isCurrentEmployer, true), .valid)
        XCTAssertEqual(verdict(.isCurrentEmployer, \.isCurrentEmployer, false), .valid)
    }

    @MainActor func testBlankForm_hasOneProblem_theName() async {
        let viewModel = SurveyViewModel(preferredLanguages: [])
        let problems = SurveyField.allCases.filter { !viewModel.validation(for: $0).value.isValid }
        XCTAssertEqual(problems, [.name])
        XCTAssertEqual(viewModel.firstProblem?.message, "Name is required.")
    }

    // MARK: - German, from the form's own translations

    @MainActor func testMessages_inGerman_whenTheDesktopAsksForIt() async {
        let german = ["de_DE.UTF-8", "de_DE", "de", "C"]
        let cases: [(FieldValidation, String)] = [
            (verdict(.name, \.name, "", languages: german), "Bitte einen Namen angeben."),
            (verdict(.name, \.name, "   ", languages: german), "Bitte einen Namen angeben."),
            (verdict(.name, \.name, String(repeating: "a", count: 201), languages: german),
             "Der Name darf höchstens 200 Zeichen lang sein."),
            (verdict(.companyName, \.companyName, String(repeating: "c", count: 201), languages: german),
             "Die Firma darf höchstens 200 Zeichen lang sein."),
            (verdict(.yearsOfExperience, \.yearsOfExperience, 61, languages: german),
             "Die Berufsjahre müssen zwischen 0 und 60 liegen."),
            (verdict(.yearsOfExperience, \.yearsOfExperience, 1.2, languages: german),
             "Die Berufsjahre müssen ein Vielfaches von 0,5 sein."),
            (verdict(.approxSalary, \.approxSalary, -5, languages: german),
             "Das ungefähre Gehalt muss zwischen 0 und 500.000 liegen."),
            (verdict(.comments, \.comments, String(repeating: "x", count: 5_001), languages: german),
             "Die Anmerkungen dürfen höchstens 5000 Zeichen lang sein."),
        ]
        for (validation, message) in cases {
            XCTAssertEqual(validation, .invalid(message))
        }
    }

    @MainActor func testMessages_stayEnglish_forALanguageTheFormLacks() async {
        XCTAssertEqual(verdict(.name, \.name, "", languages: ["fr_FR.UTF-8", "fr"]), .invalid("Name is required."))
        XCTAssertEqual(verdict(.name, \.name, "", languages: ["C"]), .invalid("Name is required."))
    }
}
