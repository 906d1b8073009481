import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

final class RangeControlTests: GtkTestCase {
    private static let survey = """
        | | type | name | label | parameters |
        | | range | salary | Approximate salary | start=0 end=500000 step=1000 |
        """

    func testAScaleOverTheParametersWithItsValueBeside() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("salary", survey: Self.survey)
            defer { rendered.close() }
            let scale = try rendered.widget(Scale.self)
            XCTAssertFalse(scale.showsValue, "the value shows in a label of its own")
            XCTAssertEqual(scale.accessibleLabel, "Approximate salary")
            let value = try XCTUnwrap(rendered.all(Label.self).first { $0.isInside(rendered.control.shown) })
            XCTAssertEqual(value.text, "--", "unanswered")

            scale.value = 85000
            XCTAssertEqual(rendered.state.value.value, "85000")
            XCTAssertEqual(value.text, "85000")
            rendered.state.value.value = "120000"
            XCTAssertEqual(scale.value, 120000)
        }
    }
}
