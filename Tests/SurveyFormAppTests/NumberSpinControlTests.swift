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

    /// Bounds of its own, and a readout.
    private static let bounded = """
        | | type | name | label | parameters | readout | calculation |
        | | decimal | years | Years of experience | start=0 end=60 step=0.5 | ${shown} yrs | |
        | | calculate | shown | | | | round(${years} * 10) div 10 |
        """

    func testDeclaredBoundsAreTheControlsOwnAndATypedNumberPastThemIsClamped() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("years", survey: Self.bounded)
            defer { rendered.close() }
            let spin = try rendered.widget(SpinButton.self)
            XCTAssertEqual(spin.digits, 1, "as many places as the step has")
            gtk_editable_set_text(try XCTUnwrap(spin.pointer).opaque, "99999999999")
            spin.commitTypedText()
            XCTAssertEqual(rendered.state.value.value, "60", "clamped to the end")
            XCTAssertTrue(rendered.state.inputError.value.isValid, "clamped, not refused")
            gtk_editable_set_text(try XCTUnwrap(spin.pointer).opaque, "-5")
            spin.commitTypedText()
            XCTAssertEqual(rendered.state.value.value, "0", "clamped to the start")
        }
    }

    func testTheReadoutShowsBesideTheSpinButton() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("years", survey: Self.bounded)
            defer { rendered.close() }
            let spin = try rendered.widget(SpinButton.self)
            let texts = { rendered.all(Label.self).map(\.text) }
            XCTAssertTrue(texts().contains("--"), "\(texts())")
            spin.value = 12.5
            XCTAssertTrue(texts().contains("12.5 yrs"), "\(texts())")
        }
    }

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
