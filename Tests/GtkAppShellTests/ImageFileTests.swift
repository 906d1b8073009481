import CTwoWayBindingGtkShims
import Foundation
import GtkAppShell
import XCTest

/// Images read off the main thread: judged by their bytes, never decoded
/// past a size limit, scaled by their longer side, shown upright.
final class ImageFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("image-file-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func image(_ name: String, width: Int32, height: Int32, type: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        let pixbuf = try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, width, height))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        gdk_pixbuf_fill(pixbuf, 0x3366_99ff)
        var error: UnsafeMutablePointer<GError>?
        XCTAssertNotEqual(gdk_pixbuf_savev(pixbuf, path, type, nil, nil, &error), 0)
        return path
    }

    func testTheMediaType_comesFromTheBytes_notTheName() throws {
        let jpeg = try image("photo.png", width: 8, height: 8, type: "jpeg")
        XCTAssertEqual(ImageFile.mediaType(ofFile: jpeg), "image/jpeg", "a JPEG named .png is a JPEG")
        let text = folder.appendingPathComponent("notes.jpg")
        try Data("plain words, no pixels".utf8).write(to: text)
        XCTAssertEqual(ImageFile.mediaType(ofFile: text.path), "text/plain")
    }

    func testScaledDown_keepsProportions_andTheFormat() throws {
        let jpeg = try image("wide.jpg", width: 1000, height: 250, type: "jpeg")
        let scaled = try XCTUnwrap(try ImageFile.scaledDown(path: jpeg, longestSide: 100))
        XCTAssertEqual(scaled.fileExtension, "jpg")
        let out = folder.appendingPathComponent("out.jpg")
        try scaled.data.write(to: out)
        XCTAssertEqual(try ImageFile.size(ofFile: out.path).width, 100)
        XCTAssertEqual(try ImageFile.size(ofFile: out.path).height, 25)

        let small = try image("small.png", width: 80, height: 40, type: "png")
        XCTAssertNil(try ImageFile.scaledDown(path: small, longestSide: 100), "never enlarged")
    }

    func testPreview_fitsTheBox_neverEnlarged() throws {
        let tall = try image("tall.png", width: 300, height: 600, type: "png")
        let pixels = try ImageFile.preview(path: tall, fitting: 480, 320)
        XCTAssertEqual([pixels.width, pixels.height], [160, 320])
        let small = try image("tiny.png", width: 20, height: 10, type: "png")
        let kept = try ImageFile.preview(path: small, fitting: 480, 320)
        XCTAssertEqual([kept.width, kept.height], [20, 10])
    }

    func testAFileThatIsNoImage_isUnreadable() throws {
        let text = folder.appendingPathComponent("fake.png")
        try Data("not a png".utf8).write(to: text)
        XCTAssertThrowsError(try ImageFile.size(ofFile: text.path)) {
            XCTAssertEqual($0 as? ImageFile.Failure, .unreadable(reason: ""))
        }
    }

    func testAnImageDeclaringTooManyPixels_isNeverDecoded() throws {
        // A PNG header claiming 30,000 × 30,000 pixels, with no pixels after it.
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
        png += Data([0, 0, 0x75, 0x30, 0, 0, 0x75, 0x30, 8, 2, 0, 0, 0])
        png += Data([0xE9, 0x45, 0x6F, 0xED])
        // The first pixel data's chunk, after which a decoder knows the size.
        png += Data([0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x60, 0xA0, 0x0C, 0x00, 0x00, 0x00, 0x40, 0x00, 0x01, 0xB7, 0x34, 0x7C, 0xEF])
        let path = folder.appendingPathComponent("bomb.png")
        try png.write(to: path)
        XCTAssertThrowsError(try ImageFile.preview(path: path.path, fitting: 480, 320)) {
            XCTAssertEqual($0 as? ImageFile.Failure, .tooLarge(width: 30000, height: 30000))
        }
    }
}
