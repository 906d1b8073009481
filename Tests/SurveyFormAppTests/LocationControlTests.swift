import CTwoWayBindingGtkShims
import Foundation
import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

final class LocationControlTests: GtkTestCase {
    /// Types `text` at the cursor as a person would.
    @MainActor private static func type(_ text: String, into view: TextView) {
        let buffer = gtk_text_view_get_buffer(view.pointer?.cast())
        gtk_text_buffer_insert_interactive_at_cursor(buffer, text, -1, 1)
    }

    private static let survey = """
        | | type | name | label | required |
        | | geopoint | site | Site | yes |
        | | geotrace | road | Road | |
        | | geoshape | field | Field | |
        """

    func testAPoint_isTypedInAnyNotation_storedAsXForms_andReadBackAsDegrees() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("site", survey: Self.survey)
            defer { rendered.close() }
            let entry = try rendered.widget(Entry.self)
            XCTAssertEqual(entry.accessibleLabel, "Site")
            XCTAssertTrue(entry.isAccessibleRequired)
            XCTAssertFalse(entry.undoesTyping, "Ctrl+Z is the form's, question by question")

            entry.text = #"48°51'30"N 2°17'42"W"#
            XCTAssertEqual(rendered.state.value.value, "48.858333333333334 -2.295 0.0 0.0")
            XCTAssertTrue(rendered.all(Label.self).contains { $0.text == "48.858333° N, 2.295000° W" }, "read back as degrees")

            entry.text = "95, 2"
            XCTAssertEqual(rendered.state.value.value, "48.858333333333334 -2.295 0.0 0.0", "an impossible latitude is refused")
            XCTAssertEqual(rendered.state.inputError.value.message, "The latitude 95.0 is outside -90 to 90.")

            rendered.state.value.value = "-1.5 36.8 1650.0 4.0"
            XCTAssertEqual(entry.text, "-1.5 36.8 1650.0 4.0")
            XCTAssertTrue(rendered.all(Label.self).contains { $0.text == "1.500000° S, 36.800000° E (within 4 m)" })
        }
    }

    func testEnterInAPoint_movesOnToTheNextQuestion() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("site", survey: Self.survey)
            defer { rendered.close() }
            twb_signal_emit(UnsafeMutableRawPointer(try XCTUnwrap(rendered.widget(Entry.self).pointer)), "activate")
            XCTAssertEqual(rendered.advances, 1)
        }
    }

    func testALineAndAShape_takeAPointPerLine_andAShapeIsClosed() throws {
        try MainActor.assumeIsolated {
            let road = try RenderedQuestion("road", survey: Self.survey)
            defer { road.close() }
            let roadText = try road.widget(TextView.self)
            XCTAssertEqual(roadText.accessibleLabel, "Road")
            Self.type("0, 0\n1, 0", into: roadText)
            XCTAssertEqual(road.state.value.value, "0.0 0.0 0.0 0.0;1.0 0.0 0.0 0.0")
            XCTAssertTrue(road.all(Label.self).contains { $0.text == "2 points, 111.32 km long" })

            let field = try RenderedQuestion("field", survey: Self.survey)
            defer { field.close() }
            let fieldText = try field.widget(TextView.self)
            Self.type("0 0\n0 1", into: fieldText)
            XCTAssertEqual(field.state.value.value, "", "two corners are no shape")
            XCTAssertEqual(field.state.inputError.value.message, "A shape needs at least three different points, one per line.")
            Self.type("\n1 1", into: fieldText)
            XCTAssertEqual(field.state.value.value, "0.0 0.0 0.0 0.0;0.0 1.0 0.0 0.0;1.0 1.0 0.0 0.0;0.0 0.0 0.0 0.0")
        }
    }

    func testALineAndAShape_areDrawnBesideTheirReadout_northUp_andAPointIsNot() throws {
        try MainActor.assumeIsolated {
            let road = try RenderedQuestion("road", survey: Self.survey)
            defer { road.close() }
            let preview = try road.widget(FigureView.self)
            XCTAssertFalse(preview.isVisible, "nothing to draw before a line is typed")
            XCTAssertEqual(preview.accessibleLabel, "Drawing of the line")
            road.state.value.value = "0 0 0 0;1 0 0 0"
            XCTAssertTrue(preview.isVisible)
            XCTAssertEqual(preview.figure, .line([.init(x: 0, y: 0), .init(x: 0, y: 1)]), "east as x, north as y")
            let placed = preview.placed(width: 160, height: 120)
            XCTAssertLessThan(placed[1].y, placed[0].y, "the northern point drawn higher")
            road.state.value.value = ""
            XCTAssertFalse(preview.isVisible)

            let field = try RenderedQuestion("field", survey: Self.survey)
            defer { field.close() }
            field.state.value.value = "60 0 0 0;60 2 0 0;61 2 0 0;60 0 0 0"
            let shape = try field.widget(FigureView.self).figure
            guard case .shape(let corners) = shape else { return XCTFail("\(shape)") }
            XCTAssertEqual(corners.count, 3, "the closing point is the first again, not a fourth corner")
            XCTAssertEqual(corners[1].x, 2 * cos(60.5 * .pi / 180), accuracy: 1e-9, "east shrunk at the shape's latitude")

            let site = try RenderedQuestion("site", survey: Self.survey)
            defer { site.close() }
            XCTAssertTrue(site.all(FigureView.self).isEmpty, "a lone dot says nothing the degrees do not")
        }
    }
}
