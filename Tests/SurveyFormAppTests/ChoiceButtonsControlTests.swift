import CTwoWayBindingGtkShims
import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

final class ChoiceButtonsControlTests: GtkTestCase {
    private static let survey = """
        | | type | name | label::English (en) | label::Deutsch (de) | choice_filter |
        | | select_one yn | agree | Agree | Zustimmen | |
        | | select_multiple fruit | fruit | Fruit | Obst | |
        | | select_one fruit | sweet | Sweet | Süß | ${agree} = 'yes' or name != 'lemon' |
        """
    private static let choices = """
        | | list_name | name | label::English (en) | label::Deutsch (de) |
        | | yn | yes | Yes | Ja |
        | | yn | no | No | Nein |
        | | fruit | apple | Apple | Apfel |
        | | fruit | lemon | Lemon | Zitrone |
        """

    func testASelectOneIsRadioButtonsBoundBothWays() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("agree", survey: Self.survey, choices: Self.choices)
            defer { rendered.close() }
            let buttons = rendered.all(CheckButton.self)
            XCTAssertEqual(buttons.count, 2)
            buttons[1].isChecked = true
            XCTAssertEqual(rendered.state.value.value, "no")
            buttons[0].isChecked = true
            XCTAssertEqual(rendered.state.value.value, "yes")
            XCTAssertFalse(buttons[1].isChecked, "one choice at a time")
            rendered.state.value.value = "no"
            XCTAssertEqual(buttons.map(\.isChecked), [false, true])
        }
    }

    func testASelectMultipleTicksEachChoice() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("fruit", survey: Self.survey, choices: Self.choices)
            defer { rendered.close() }
            let buttons = rendered.all(CheckButton.self)
            buttons[0].isChecked = true
            buttons[1].isChecked = true
            XCTAssertEqual(rendered.state.value.value, "apple lemon")
            buttons[0].isChecked = false
            XCTAssertEqual(rendered.state.value.value, "lemon")
        }
    }

    func testTheButtonsFollowTheChoicesOfferedAndTheLanguage() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("sweet", survey: Self.survey, choices: Self.choices)
            defer { rendered.close() }
            XCTAssertEqual(rendered.all(CheckButton.self).count, 1, "the filter leaves out the lemon")
            let agree = try XCTUnwrap(rendered.viewModel.states.first { $0.question.name == "agree" })
            agree.value.value = "yes"
            XCTAssertEqual(rendered.all(CheckButton.self).count, 2)

            rendered.viewModel.language.value = "Deutsch (de)"
            XCTAssertEqual(rendered.all(CheckButton.self).map(Self.label), ["Apfel", "Zitrone"])
        }
    }

    @MainActor
    private static func label(of button: CheckButton) -> String? {
        gtk_check_button_get_label(button.pointer?.cast()).map { String(cString: $0) }
    }
}
