import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

final class AcknowledgeControlTests: GtkTestCase {
    private static let survey = """
        | | type | name | label |
        | | acknowledge | current_employer | Current employer |
        """

    func testASwitchThatIsOnForOK() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("current_employer", survey: Self.survey)
            defer { rendered.close() }
            let toggle = try rendered.widget(Switch.self)
            XCTAssertEqual(toggle.accessibleLabel, "Current employer")
            XCTAssertFalse(toggle.isOn)

            toggle.isOn = true
            XCTAssertEqual(rendered.state.value.value, "OK")
            rendered.state.value.value = ""
            XCTAssertFalse(toggle.isOn)
        }
    }
}
