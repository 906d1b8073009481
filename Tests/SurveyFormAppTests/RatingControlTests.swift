import CTwoWayBindingGtkShims
import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

final class RatingControlTests: GtkTestCase {
    private static let survey = """
        | | type | name | label | appearance | parameters |
        | | range | stars | Service | rating | start=1 end=5 step=1 |
        | | range | wide | Wide | rating | start=1 end=100 step=1 |
        """

    func testAStarPerValue_clickedToRate_clickedAgainToClear() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("stars", survey: Self.survey)
            defer { rendered.close() }
            let stars = rendered.all(ToggleButton.self)
            XCTAssertEqual(stars.count, 5)
            XCTAssertEqual(stars.map(\.accessibleLabel), ["1 of 5", "2 of 5", "3 of 5", "4 of 5", "5 of 5"])
            XCTAssertTrue(stars.allSatisfy { !$0.isActive })

            // A screen reader hears a row of radio buttons, the rating's own checked.
            XCTAssertTrue(stars.allSatisfy { gtk_accessible_get_accessible_role(OpaquePointer($0.pointer)) == GTK_ACCESSIBLE_ROLE_RADIO })
            twb_signal_emit(try XCTUnwrap(stars[2].pointer), "clicked")
            XCTAssertEqual(rendered.state.value.value, "3")
            XCTAssertEqual(stars.map(\.isActive), [true, true, true, false, false])
            XCTAssertEqual(stars.map { twb_test_accessible_is_checked(OpaquePointer($0.pointer), TWB_TRUE) != 0 },
                           [false, false, true, false, false], "lit up to the third; the third is the one chosen")
            XCTAssertEqual(stars[2].iconName, "starred-symbolic")
            XCTAssertEqual(stars[3].iconName, "non-starred-symbolic")

            twb_signal_emit(try XCTUnwrap(stars[2].pointer), "clicked")
            XCTAssertEqual(rendered.state.value.value, "", "the same star again clears the rating")
            XCTAssertTrue(stars.allSatisfy { !$0.isActive })

            rendered.state.value.value = "5"
            XCTAssertTrue(stars.allSatisfy(\.isActive))
        }
    }

    func testARangeTooLongForStars_isAScale() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("wide", survey: Self.survey)
            defer { rendered.close() }
            XCTAssertTrue(rendered.all(ToggleButton.self).isEmpty)
            XCTAssertNoThrow(try rendered.widget(Scale.self))
        }
    }
}
