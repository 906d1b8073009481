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
            // The buttons were rebuilt; what names them for a screen reader was not.
            let named = try XCTUnwrap(rendered.control.labelled.first)
            XCTAssertEqual(named.accessibleLabel, "Süß")
            XCTAssertTrue(rendered.all(CheckButton.self).allSatisfy { $0.isInside(named) })
        }
    }

    @MainActor
    private static func label(of button: CheckButton) -> String? {
        gtk_check_button_get_label(button.pointer?.cast()).map { String(cString: $0) }
    }

    private static let layoutChoices = """
        | | list_name | name | label | media::image |
        | | agree | 1 | Disagree | |
        | | agree | 2 | Neutral | |
        | | agree | 3 | Agree | |
        | | agree | 4 | Strongly agree | strong.png |
        """

    /// The column and row of `widget`'s cell in the grid it is in.
    @MainActor
    private static func cell(of widget: Widget) -> (column: Int32, row: Int32)? {
        var child = widget.pointer
        while let current = child, let parent = gtk_widget_get_parent(current) {
            if twb_instance_is_a(parent, gtk_grid_get_type()) != 0 {
                var column: Int32 = 0, row: Int32 = 0, width: Int32 = 0, height: Int32 = 0
                gtk_grid_query_child(parent.cast(), current, &column, &row, &width, &height)
                return (column, row)
            }
            child = parent
        }
        return nil
    }

    func testColumnsAndLikert_layTheButtonsOutInAGrid() throws {
        try MainActor.assumeIsolated {
            let survey = """
                | | type | name | label | appearance |
                | | select_one agree | two | Two | columns-2 |
                | | select_one agree | scale | Scale | likert |
                """
            let two = try RenderedQuestion("two", survey: survey, choices: Self.layoutChoices)
            defer { two.close() }
            let buttons = two.all(CheckButton.self)
            XCTAssertEqual(buttons.compactMap { Self.cell(of: $0) }.map { [$0.column, $0.row] }, [[0, 0], [1, 0], [0, 1], [1, 1]])
            XCTAssertEqual(buttons.map(Self.label), ["Disagree", "Neutral", "Agree", "Strongly agree"])

            let scale = try RenderedQuestion("scale", survey: survey, choices: Self.layoutChoices)
            defer { scale.close() }
            let points = scale.all(CheckButton.self)
            XCTAssertEqual(points.compactMap { Self.cell(of: $0) }.map { [$0.column, $0.row] }, [[0, 0], [1, 0], [2, 0], [3, 0]])
            XCTAssertEqual(points.map(\.accessibleLabel), ["Disagree", "Neutral", "Agree", "Strongly agree"], "each point is named by its label")
            XCTAssertTrue(scale.all(Label.self).contains { $0.text == "Strongly agree" && Self.cell(of: $0)?.row == 1 })
            points[3].isChecked = true
            XCTAssertEqual(scale.state.value.value, "4")
        }
    }

    func testATableListGroup_headsItsFirstRowWithTheLabels_andNamesEveryButton() throws {
        try MainActor.assumeIsolated {
            let survey = """
                | | type | name | label | appearance |
                | | begin_group | table | Table | table-list |
                | | select_one agree | first | First | |
                | | select_one agree | second | Second | |
                | | end_group | | | |
                """
            let first = try RenderedQuestion("first", survey: survey, choices: Self.layoutChoices)
            defer { first.close() }
            let second = try RenderedQuestion("second", survey: survey, choices: Self.layoutChoices)
            defer { second.close() }
            for rendered in [first, second] {
                let buttons = rendered.all(CheckButton.self)
                XCTAssertTrue(buttons.allSatisfy { (Self.label(of: $0) ?? "").isEmpty }, "the labels stand apart")
                XCTAssertEqual(buttons.map(\.accessibleLabel), ["Disagree", "Neutral", "Agree", "Strongly agree"])
            }
            XCTAssertTrue(first.all(Label.self).contains { $0.text == "Neutral" }, "the header")
            XCTAssertFalse(second.all(Label.self).contains { $0.text == "Neutral" }, "only the first row has it")
            second.all(CheckButton.self)[1].isChecked = true
            XCTAssertEqual(second.state.value.value, "2")
        }
    }

    func testAChoicesMissingImage_isSaidUnderIt() throws {
        try MainActor.assumeIsolated {
            let survey = """
                | | type | name | label |
                | | select_one agree | q | Q |
                """
            let rendered = try RenderedQuestion("q", survey: survey, choices: Self.layoutChoices)
            defer { rendered.close() }
            XCTAssertTrue(rendered.all(Label.self).contains { $0.text.contains("“strong.png” is missing") })
        }
    }
}
