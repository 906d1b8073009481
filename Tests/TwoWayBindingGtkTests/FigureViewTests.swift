import CTwoWayBindingGtkShims
import Foundation
import GtkTestSupport
import TwoWayBinding
import TwoWayBindingGtk
import XCTest

/// Points, a line or a shape drawn to fit, north up, heard as a picture.
final class FigureViewTests: GtkTestCase {
    /// The colour of one pixel of a PNG (red, green, blue).
    private static func pixel(_ png: Data, x: Int, y: Int) throws -> [UInt8] {
        let loader = gdk_pixbuf_loader_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        png.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            XCTAssertNotEqual(gdk_pixbuf_loader_write(loader, bytes.baseAddress?.assumingMemoryBound(to: guchar.self), gsize(bytes.count), nil), 0)
        }
        XCTAssertNotEqual(gdk_pixbuf_loader_close(loader, nil), 0)
        let pixbuf = try XCTUnwrap(gdk_pixbuf_loader_get_pixbuf(loader))
        let at = y * Int(gdk_pixbuf_get_rowstride(pixbuf)) + x * Int(gdk_pixbuf_get_n_channels(pixbuf))
        let pixels = try XCTUnwrap(gdk_pixbuf_read_pixels(pixbuf))
        return [pixels[at], pixels[at + 1], pixels[at + 2]]
    }

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
            XCTAssertEqual(try Self.pixel(png, x: 50, y: 10), [0, 0, 0], "the top edge")
            let inside = try Self.pixel(png, x: 50, y: 50)
            XCTAssertTrue(inside.allSatisfy { $0 > 150 && $0 < 255 }, "filled lightly: \(inside)")
            XCTAssertEqual(try Self.pixel(png, x: 3, y: 50), [255, 255, 255], "nothing outside the margin")
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
