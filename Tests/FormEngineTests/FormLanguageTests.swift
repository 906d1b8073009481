import FormEngine
import Foundation
import XCTest

/// Which of a form's languages it starts in: the desktop's first that the form
/// has, else its default language.
final class FormLanguageTests: XCTestCase {
    private static let bilingual = """
        | settings |
        | | form_id | default_language |
        | | bilingual | English (en) |
        | survey |
        | | type | name | label::English (en) | label::Deutsch (de) | label::Português (pt-BR) |
        | | text | name | Name | Name | Nome |
        """

    func testLanguageCode_isWhatTheParenthesesHold() {
        XCTAssertEqual(FormDefinition.languageCode(of: "Deutsch (de)"), "de")
        XCTAssertEqual(FormDefinition.languageCode(of: "Português (pt-BR)"), "pt-br")
        XCTAssertNil(FormDefinition.languageCode(of: "English"))
        XCTAssertNil(FormDefinition.languageCode(of: "default"))
        XCTAssertNil(FormDefinition.languageCode(of: "Empty ()"))
    }

    func testRightToLeftLanguages_byCodeElseByEnglishName() {
        for name in ["العربية (ar)", "Dari (prs)", "עברית (he)", "Urdu (ur-PK)", "Arabic", "farsi", " Pashto "] {
            XCTAssertTrue(FormDefinition.isRightToLeft(name), name)
        }
        for name in ["English (en)", "Deutsch (de)", "Français (fr)", "default", "Armenian (hy)", "Swahili"] {
            XCTAssertFalse(FormDefinition.isRightToLeft(name), name)
        }
        XCTAssertFalse(FormDefinition.isRightToLeft(nil))
    }

    func testMatching_takesTheFirstPreferenceTheFormHas() throws {
        let form = try FormFixtures.definition(Self.bilingual)
        XCTAssertEqual(form.language(matching: ["fr_FR.UTF-8", "de_AT.UTF-8", "en"]), "Deutsch (de)")
        XCTAssertEqual(form.language(matching: ["de_DE.UTF-8@euro"]), "Deutsch (de)")
        XCTAssertEqual(form.language(matching: ["pt_BR.UTF-8"]), "Português (pt-BR)")
        XCTAssertEqual(form.language(matching: ["pt_PT"]), "Português (pt-BR)", "a close match beats none")
        XCTAssertNil(form.language(matching: ["fr"]))
        XCTAssertNil(form.language(matching: []))
    }

    func testMatching_stopsAtTheCLocale() throws {
        let form = try FormFixtures.definition(Self.bilingual)
        XCTAssertNil(form.language(matching: ["C", "de"]))
        XCTAssertNil(form.language(matching: ["POSIX", "de"]))
    }

    func testStartLanguage_desktopFirst_thenTheFormsDefault() throws {
        let form = try FormFixtures.definition(Self.bilingual)
        XCTAssertEqual(FormViewModel.startLanguage(form, preferring: ["de_CH"]), "Deutsch (de)")
        XCTAssertEqual(FormViewModel.startLanguage(form, preferring: ["ja_JP.UTF-8"]), "English (en)")
        XCTAssertEqual(FormViewModel.startLanguage(form), "English (en)")
    }

    @MainActor func testAFormStartedInGerman_showsGermanLabels() async throws {
        let definition = try FormFixtures.definition(Self.bilingual)
        let form = try FormViewModel(
            definition: definition, language: FormViewModel.startLanguage(definition, preferring: ["de"])
        )
        XCTAssertEqual(form.state(named: "name")?.label.value, "Name")
        form.language.value = "Português (pt-BR)"
        XCTAssertEqual(form.state(named: "name")?.label.value, "Nome")
    }

    func testReadingBytes_isReadingTheFile() throws {
        let data = Data(Self.bilingual.utf8)
        let fromBytes = try FormDefinition(data: data, fileName: "bilingual.md")
        XCTAssertEqual(fromBytes.languages, ["Deutsch (de)", "English (en)", "Português (pt-BR)"])
        XCTAssertThrowsError(try FormDefinition(data: data, fileName: "bilingual.txt")) { error in
            XCTAssertEqual((error as? FormDefinitionError)?.problems.map(\.description),
                           ["bilingual.txt: not a form file (expected .xlsx, .xls, .csv, .md or an XForm's .xml)"])
        }
    }
}
