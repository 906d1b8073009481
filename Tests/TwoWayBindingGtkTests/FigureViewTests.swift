import CTwoWayBindingGtkShims
import Foundation
import GtkTestSupport
import TwoWayBinding
import TwoWayBindingGtk
import XCTest

/// Points, a line or a shape drawn to fit, north up, heard as a picture.
final class FigureViewTests: GtkTestCase {
    func testAFigure_fillsTheViewWithinItsMargin_proportionsKept_centred_northUp() throws {
        MainActor.assumeIsolated {
            let view = FigureView(width: 120, height: 120, accessibleName: "Drawing of the line")
            XCTAssertEqual(view.placed(width: 120, height: 120), [], "nothing to place")
            view.figure = .line([.init(x: 0, y: 0), .init(x: 2, y: 1)])
            let placed = view.placed(width: 120, height: 120)
            // Two wide and one high in 100 × 100 of room: 50 pixels a unit, centred.
            XCTAssertEqual(placed, [.init(x: 10, y: 85), .init(x: 110, y: 35)])

            view.figure = .points([.init(x: 5, y: 5)])
            XCTAssertEqual(view.placed(width: 120, height: 80), [.init(x: 60, y: 40)], "a lone point in the middle")
            view.figure = .line([.init(x: 3, y: 1), .init(x: 3, y: 4)])
            XCTAssertEqual(view.placed(width: 120, height: 120).map(\.x), [60, 60], "a line due north, centred across")
        }
    }

    func testAShape_isOutlinedAndFilledLightly_inThePNG() throws {
        try MainActor.assumeIsolated {
            let view = FigureView(width: 100, height: 100, accessibleName: "Drawing of the shape")
            view.figure = .shape([.init(x: 0, y: 0), .init(x: 1, y: 0), .init(x: 1, y: 1), .init(x: 0, y: 1)])
            let png = try XCTUnwrap(view.pngData(width: 100, height: 100))
            XCTAssertEqual(try GtkTest.pngPixel(png, x: 50, y: 10).pixel, [0, 0, 0], "the top edge")
            let inside = try GtkTest.pngPixel(png, x: 50, y: 50).pixel
            XCTAssertTrue(inside.allSatisfy { $0 > 150 && $0 < 255 }, "filled lightly: \(inside)")
            XCTAssertEqual(try GtkTest.pngPixel(png, x: 3, y: 50).pixel, [255, 255, 255], "nothing outside the margin")
        }
    }

    func testAView_followsWhatItShows_hidesWhenEmpty_andIsHeardAsAPicture() throws {
        try MainActor.assumeIsolated {
            let view = FigureView(width: 100, height: 100, accessibleName: "Drawing of the line")
            let window = GtkTest.window(try XCTUnwrap(view.pointer))
            defer { GtkTest.destroy(window) }
            XCTAssertEqual(gtk_accessible_get_accessible_role(OpaquePointer(view.pointer)), GTK_ACCESSIBLE_ROLE_IMG)
            XCTAssertEqual(view.accessibleLabel, "Drawing of the line")
            view.hidesWhenEmpty = true
            XCTAssertFalse(view.isVisible)
            let count = Observable(2)
            view.show(count) { count in .line((0..<count).map { FigureView.Point(x: Double($0), y: 0) }) }
            XCTAssertTrue(view.isVisible)
            XCTAssertEqual(view.figure.points.count, 2)
            count.value = 3
            XCTAssertEqual(view.figure.points.count, 3)
            count.value = 0
            XCTAssertFalse(view.isVisible, "no room taken by an empty drawing")
        }
    }
}
