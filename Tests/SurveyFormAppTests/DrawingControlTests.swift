import CTwoWayBindingGtkShims
import FormEngine
import Foundation
import GtkTestSupport
import SurveyStorage
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

/// Signatures and drawings: each stroke stored as a PNG that becomes the
/// answer, taken back by the form's Undo; an image file chosen instead for
/// the keyboard; marks over a photo at the photo's own size.
final class DrawingControlTests: GtkTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("drawing-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    private static let survey = """
        | | type | name | label | appearance |
        | | image | consent | Sign here | signature |
        | | image | marks | Mark the damage | annotate |
        """

    @MainActor private static func render(_ folder: URL, _ name: String) throws -> (RenderedQuestion, ResponseFiles) {
        try RenderedQuestion.withFiles(name, survey: survey, in: folder)
    }

    @MainActor private static func size(of url: URL) -> [Int32] {
        var width: Int32 = 0, height: Int32 = 0
        _ = gdk_pixbuf_get_file_info(url.path, &width, &height)
        return [width, height]
    }

    func testEachStroke_isStoredAsTheAnswer_andUndoTakesItBack() throws {
        let folder: URL = folder
        try MainActor.assumeIsolated {
            let (rendered, files) = try Self.render(folder, "consent")
            defer { rendered.close() }
            let canvas = try rendered.widget(DrawingCanvas.self)
            XCTAssertEqual(canvas.accessibleLabel, "Signature pad")
            XCTAssertTrue(rendered.all(Button.self).contains { $0.accessibleLabel == "Sign here" }, "Choose, for the keyboard")

            canvas.draw([(100, 100), (800, 200)])
            XCTAssertTrue(GtkTest.pump(until: { !rendered.state.value.value.isEmpty }, timeout: 30), "the stroke stored")
            let first = rendered.state.value.value
            XCTAssertTrue(first.hasSuffix(".png"))
            XCTAssertEqual(Self.size(of: try XCTUnwrap(files.url(of: first))), [960, 360], "the pad's own size")
            XCTAssertEqual(canvas.strokes.count, 1, "the canvas keeps what it drew")

            canvas.draw([(100, 300), (800, 300)])
            XCTAssertTrue(GtkTest.pump(until: { rendered.state.value.value != first }, timeout: 30))
            XCTAssertEqual(canvas.strokes.count, 2)

            rendered.viewModel.history.undo()
            XCTAssertEqual(rendered.state.value.value, first)
            XCTAssertTrue(GtkTest.pump(until: { canvas.strokes.isEmpty && canvas.background != nil }, timeout: 30),
                          "the first stroke's drawing shown again, as the stored picture")
            rendered.viewModel.history.undo()
            XCTAssertEqual(rendered.state.value.value, "")
            XCTAssertNil(canvas.background)
        }
    }

    func testAnnotate_drawsOverTheChosenPhoto_atItsOwnSize() throws {
        let folder: URL = folder
        try MainActor.assumeIsolated {
            let (rendered, files) = try Self.render(folder, "marks")
            defer { rendered.close() }
            let photo = folder.appendingPathComponent("car.png").path
            let pixbuf = try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 300, 200))
            gdk_pixbuf_fill(pixbuf, 0x00ff_00ff)
            XCTAssertNotEqual(gdk_pixbuf_savev(pixbuf, photo, "png", nil, nil, nil), 0)
            g_object_unref(UnsafeMutableRawPointer(pixbuf))

            XCTAssertTrue(rendered.card._dropFiles([photo]))
            let canvas = try rendered.widget(DrawingCanvas.self)
            XCTAssertTrue(GtkTest.pump(until: { canvas.background != nil }, timeout: 30), "the photo under the canvas")
            XCTAssertEqual(canvas.size.width, 300)
            let chosen = rendered.state.value.value

            canvas.draw([(10, 10), (290, 190)])
            XCTAssertTrue(GtkTest.pump(until: { rendered.state.value.value != chosen }, timeout: 30))
            XCTAssertEqual(Self.size(of: try XCTUnwrap(files.url(of: rendered.state.value.value))), [300, 200])
        }
    }
}
