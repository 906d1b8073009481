import CTwoWayBindingGtkShims
import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

final class NumberSpinControlTests: GtkTestCase {
    private static let survey = """
        | | type | name | label | constraint | constraint_message |
        | | decimal | years | Years of experience | . >= 0 and . <= 60 | Between 0 and 60. |
        | | integer | children | Children | . >= 0 and . <= 20 | |
        """

    func testTheConstraintsRangeIsOfferedAndBoundBothWays() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("years", survey: Self.survey)
            defer { rendered.close() }
            let spin = try rendered.widget(SpinButton.self)
            XCTAssertEqual(spin.digits, 2, "a decimal shows its fraction")
            XCTAssertEqual(spin.accessibleLabel, "Years of experience")
            XCTAssertEqual(rendered.state.value.value, "", "empty while unanswered")

            spin.value = 12.5
            XCTAssertEqual(rendered.state.value.value, "12.5")
            rendered.state.value.value = "30"
            XCTAssertEqual(spin.value, 30)
        }
    }

    func testANumberOutsideTheRangeIsRefusedWithTheConstraintsMessageNotClamped() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("years", survey: Self.survey)
            defer { rendered.close() }
            let spin = try rendered.widget(SpinButton.self)
            spin.value = 10
            gtk_editable_set_text(try XCTUnwrap(spin.pointer).opaque, "75")
            spin.commitTypedText()
            XCTAssertEqual(rendered.state.value.value, "10", "the answer keeps what it had")
            XCTAssertEqual(rendered.state.inputError.value.message, "Between 0 and 60.")
        }
    }

    func testAWholeNumberShowsNoFraction() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("children", survey: Self.survey)
            defer { rendered.close() }
            let spin = try rendered.widget(SpinButton.self)
            XCTAssertEqual(spin.digits, 0)
            spin.value = 3
            XCTAssertEqual(rendered.state.value.value, "3")
        }
    }

    func testDecimalPlacesOfTheRangesBounds() {
        XCTAssertEqual(NumberSpinControl.decimalPlaces(of: 34.5), 1)
        XCTAssertEqual(NumberSpinControl.decimalPlaces(of: 42), 0)
        XCTAssertEqual(NumberSpinControl.decimalPlaces(of: 0.125), 3)
        XCTAssertEqual(NumberSpinControl.decimalPlaces(of: 1e-20), 0)
    }
}
