import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

final class DropDownControlTests: GtkTestCase {
    private static let survey = """
        | | type | name | label | appearance | choice_filter |
        | | select_one city | city | City | minimal | |
        | | select_one district | district | District | minimal | city = ${city} |
        """
    private static let choices = """
        | | list_name | name | label | city |
        | | city | nairobi | Nairobi | |
        | | city | mombasa | Mombasa | |
        | | district | westlands | Westlands | nairobi |
        | | district | kisauni | Kisauni | mombasa |
        | | district | likoni | Likoni | mombasa |
        """

    func testAMinimalSelectOneIsADropDownBoundBothWays() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("city", survey: Self.survey, choices: Self.choices)
            defer { rendered.close() }
            let dropDown = try rendered.widget(DropDown.self)
            XCTAssertEqual(dropDown.accessibleLabel, "City")
            XCTAssertNil(dropDown.selectedIndex, "nothing chosen while unanswered")

            dropDown.selectedIndex = 1
            XCTAssertEqual(rendered.state.value.value, "mombasa")
            rendered.state.value.value = "nairobi"
            XCTAssertEqual(dropDown.selectedIndex, 0)
        }
    }

    func testTheListFollowsTheChoicesOfferedAndKeepsTheAnswer() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("district", survey: Self.survey, choices: Self.choices)
            defer { rendered.close() }
            let dropDown = try rendered.widget(DropDown.self)
            let city = try XCTUnwrap(rendered.viewModel.states.first { $0.question.name == "city" })
            city.value.value = "mombasa"
            dropDown.selectedIndex = 1
            XCTAssertEqual(rendered.state.value.value, "likoni")

            city.value.value = "nairobi"
            XCTAssertNil(dropDown.selectedIndex, "likoni is not offered in Nairobi")
            city.value.value = "mombasa"
            rendered.state.value.value = "kisauni"
            XCTAssertEqual(dropDown.selectedIndex, 0)
        }
    }
}
