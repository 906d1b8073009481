import CTwoWayBindingGtkShims
import Foundation
import GtkTestSupport
import TwoWayBinding
import TwoWayBindingGtk
import XCTest

/// Strokes over white or over a picture, kept at the drawing's own size
/// whatever size it is shown at, and written as a PNG.
final class DrawingCanvasTests: GtkTestCase {
    func testAStroke_isBlackOnWhite_inThePNG_atTheDrawingsOwnSize() throws {
        try MainActor.assumeIsolated {
            let canvas = DrawingCanvas(width: 200, height: 100, shownWidth: 100, accessibleName: "Signature pad")
            let window = GtkTest.window(try XCTUnwrap(canvas.pointer))
            defer { GtkTest.destroy(window) }
            XCTAssertEqual(canvas.accessibleLabel, "Signature pad")
            var ended = 0
            canvas.onStrokeEnded = { ended += 1 }
            canvas.draw([(10, 50), (190, 50)])
            XCTAssertEqual(ended, 1)
            XCTAssertEqual(canvas.strokes.count, 1)
            let png = try XCTUnwrap(canvas.pngData())
            let line = try GtkTest.pngPixel(png, x: 100, y: 50)
            XCTAssertEqual([line.width, line.height], [200, 100])
            XCTAssertEqual(line.pixel, [0, 0, 0], "the stroke")
            XCTAssertEqual(try GtkTest.pngPixel(png, x: 100, y: 10).pixel, [255, 255, 255], "white elsewhere")
        }
    }

    func testADrag_onACanvasShownSmaller_drawsAtTheDrawingsScale() throws {
        try MainActor.assumeIsolated {
            let canvas = DrawingCanvas(width: 400, height: 200, shownWidth: 200, accessibleName: "Drawing area")
            canvas.horizontalAlignment = .start
            let window = GtkTest.window(try XCTUnwrap(canvas.pointer), present: true)
            defer { GtkTest.destroy(window) }
            XCTAssertTrue(GtkTest.pump(until: { gtk_widget_get_width(canvas.pointer) == 200 }), "shown at its width")
            var ended = 0
            canvas.onStrokeEnded = { ended += 1 }
            canvas._pointerDrag(from: (10, 20), to: (110, 60))
            XCTAssertEqual(ended, 1)
            let stroke = try XCTUnwrap(canvas.strokes.first)
            XCTAssertEqual(stroke.map(\.x), [20, 120, 220], "twice the shown size")
            XCTAssertEqual(stroke.map(\.y), [40, 80, 120])
        }
    }

    func testABackground_givesTheDrawingItsSize_andIsDrawnUnderTheStrokes() throws {
        try MainActor.assumeIsolated {
            let canvas = DrawingCanvas(width: 200, height: 100, accessibleName: "Drawing area")
            let window = GtkTest.window(try XCTUnwrap(canvas.pointer))
            defer { GtkTest.destroy(window) }
            canvas.draw([(1, 1), (2, 2)])
            // 4 × 2 pure green.
            let green = Data((0..<8).flatMap { _ in [UInt8(0), 255, 0] })
            canvas.reset(background: try XCTUnwrap(ImagePixels(width: 4, height: 2, rowStride: 12, hasAlpha: false, bytes: green)))
            XCTAssertTrue(canvas.strokes.isEmpty, "a new start")
            XCTAssertEqual(canvas.size.width, 4)
            let png = try XCTUnwrap(canvas.pngData())
            let pixel = try GtkTest.pngPixel(png, x: 0, y: 0)
            XCTAssertEqual([pixel.width, pixel.height], [4, 2])
            XCTAssertEqual(pixel.pixel, [0, 255, 0])
        }
    }
}
