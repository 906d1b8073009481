import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

final class ChoicePopoverControlTests: GtkTestCase {
    private static let survey = """
        | | type | name | label::English (en) | label::Deutsch (de) | appearance |
        | | select_multiple fruit | fruit | Fruit | Obst | minimal |
        """
    private static let choices = """
        | | list_name | name | label::English (en) | label::Deutsch (de) |
        | | fruit | apple | Apple | Apfel |
        | | fruit | lemon | Lemon | Zitrone |
        | | fruit | fig | Fig | Feige |
        """

    func testAButtonNamingTheChoices_opensCheckBoxesBoundBothWays() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("fruit", survey: Self.survey, choices: Self.choices)
            defer { rendered.close() }
            rendered.viewModel.language.value = "English (en)"
            let button = try rendered.widget(PopoverButton.self)
            XCTAssertEqual(button.accessibleLabel, "Fruit")
            XCTAssertEqual(button.label, "Choose…")
            let boxes = rendered.all(CheckButton.self)
            XCTAssertEqual(boxes.count, 3)
            let apple = boxes[0], fig = boxes[2]
            apple.isChecked = true
            fig.isChecked = true
            XCTAssertEqual(rendered.state.value.value, "apple fig")
            XCTAssertEqual(button.label, "Apple, Fig")

            rendered.state.value.value = "lemon"
            XCTAssertFalse(apple.isChecked)
            rendered.viewModel.language.value = "Deutsch (de)"
            XCTAssertEqual(button.label, "Zitrone")
        }
    }
}
