import CTwoWayBindingGtkShims
import Foundation
import GtkTestSupport
import TwoWayBinding
import TwoWayBindingGtk
import XCTest

/// Pictures from pixels decoded elsewhere, and files dropped onto widgets
/// through GTK's own drop signal.
final class PictureTests: GtkTestCase {
    func testPixels_areShown_andCleared() throws {
        try MainActor.assumeIsolated {
            let picture = Picture()
            let window = GtkTest.window(try XCTUnwrap(picture.pointer))
            defer { GtkTest.destroy(window) }
            XCTAssertNil(picture.imageSize)
            let pixels = try XCTUnwrap(ImagePixels(width: 3, height: 2, rowStride: 12, hasAlpha: true, bytes: Data(count: 24)))
            picture.show(pixels)
            XCTAssertEqual(picture.imageSize?.width, 3)
            XCTAssertEqual(picture.imageSize?.height, 2)
            picture.show(nil)
            XCTAssertNil(picture.imageSize)
        }
    }

    func testPixelsTooFewForTheirSize_areRefused() {
        XCTAssertNil(ImagePixels(width: 3, height: 2, rowStride: 12, hasAlpha: true, bytes: Data(count: 23)))
        XCTAssertNil(ImagePixels(width: 3, height: 2, rowStride: 8, hasAlpha: false, bytes: Data(count: 100)))
        XCTAssertNotNil(ImagePixels(width: 3, height: 2, rowStride: 12, hasAlpha: false, bytes: Data(count: 21)),
                        "the last row needs no padding")
    }

    func testFilesDropped_reachTheHandler_untilTheTokenEnds() throws {
        try MainActor.assumeIsolated {
            let box = Box(vertical: true)
            let window = GtkTest.window(try XCTUnwrap(box.pointer))
            defer { GtkTest.destroy(window) }
            var dropped: [[String]] = []
            let token = box.onFilesDropped { dropped.append($0) }
            XCTAssertTrue(box._dropFiles(["/tmp/a photo.jpg", "/tmp/b.pdf"]))
            XCTAssertTrue(GtkTest.pump(until: { !dropped.isEmpty }))
            XCTAssertEqual(dropped, [["/tmp/a photo.jpg", "/tmp/b.pdf"]])
            token.cancel()
            XCTAssertFalse(box._dropFiles(["/tmp/c.jpg"]), "no drop target is left behind")
        }
    }
}
