import CTwoWayBindingGtkShims
import FormEngine
import Foundation
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

    func testVerticalAndNoTicks_andRangesWithoutThem() throws {
        try MainActor.assumeIsolated {
            let survey = """
                | | type | name | label | appearance | parameters |
                | | range | up | Up | vertical | start=0 end=10 step=1 |
                | | range | flat | Flat | | start=0 end=10 step=1 |
                """
            let up = try RenderedQuestion("up", survey: survey)
            defer { up.close() }
            let scale = try up.widget(Scale.self)
            let orientable = try XCTUnwrap(scale.pointer).withMemoryRebound(to: GtkWidget.self, capacity: 1) { OpaquePointer($0) }
            XCTAssertEqual(gtk_orientable_get_orientation(orientable), GTK_ORIENTATION_VERTICAL)
            XCTAssertNotEqual(gtk_range_get_inverted(scale.pointer?.cast()), 0, "the start at the bottom")
            scale.value = 7
            XCTAssertEqual(up.state.value.value, "7")

            let flat = try RenderedQuestion("flat", survey: survey)
            defer { flat.close() }
            XCTAssertEqual(gtk_orientable_get_orientation(OpaquePointer(try XCTUnwrap(flat.widget(Scale.self).pointer))), GTK_ORIENTATION_HORIZONTAL)
        }
    }

    func testARangeCountingDown_startsWhereTheScaleBegins() throws {
        try MainActor.assumeIsolated {
            let survey = """
                | | type | name | label | appearance | parameters |
                | | range | down | Down | | start=10 end=0 step=2 |
                | | range | fall | Fall | vertical | start=10 end=0 step=2 |
                """
            let down = try RenderedQuestion("down", survey: survey)
            defer { down.close() }
            let scale = try down.widget(Scale.self)
            XCTAssertTrue(scale.isInverted, "10 at the left, 0 at the right")
            XCTAssertEqual(scale.value, 10, "unanswered, at its start")
            // The first step a keyboard takes moves away from the start.
            twb_range_move_slider(scale.pointer, GTK_SCROLL_STEP_RIGHT)
            XCTAssertEqual(down.state.value.value, "8")

            let fall = try RenderedQuestion("fall", survey: survey)
            defer { fall.close() }
            XCTAssertFalse(try fall.widget(Scale.self).isInverted, "standing up, 10 at the bottom")
        }
    }

    func testTicks_followTheIntervalAndTheirLabelset() throws {
        let definition = try FormDefinition(data: Data("""
            | survey |
            | | type | name | label | parameters |
            | | range | a | A | start=0 end=10 step=1 tick_interval=5 tick_labelset=marks |
            | | range | b | B | start=0 end=500 step=1 |
            | choices |
            | | list_name | name | label |
            | | marks | 0 | Never |
            | | marks | 10 | Always |
            """.utf8), fileName: "form.md")
        let questions = definition.allQuestions
        let ticks = MainActor.assumeIsolated { RangeControl.ticks(of: questions[0], language: nil) }
        XCTAssertEqual(ticks.map(\.0), [0, 5, 10])
        XCTAssertEqual(ticks.map(\.1), ["Never", nil, "Always"])
        XCTAssertTrue(MainActor.assumeIsolated { RangeControl.ticks(of: questions[1], language: nil) }.isEmpty, "500 steps: no ticks")
    }
}
