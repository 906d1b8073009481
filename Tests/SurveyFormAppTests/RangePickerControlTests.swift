import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

final class RangePickerControlTests: GtkTestCase {
    private static let survey = """
        | | type | name | label | appearance | parameters |
        | | range | dose | Dose | picker | start=0.5 end=2 step=0.5 |
        """

    func testADropDownOfTheValues_boundBothWays() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("dose", survey: Self.survey)
            defer { rendered.close() }
            let dropDown = try rendered.widget(DropDown.self)
            XCTAssertEqual(dropDown.accessibleLabel, "Dose")
            dropDown.selectedIndex = 2
            XCTAssertEqual(rendered.state.value.value, "1.5")
            rendered.state.value.value = "2.0"
            XCTAssertEqual(dropDown.selectedIndex, 3)
        }
    }
}
