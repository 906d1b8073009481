import CTwoWayBindingGtkShims
import FormEngine
import Foundation
import GtkTestSupport
import SurveyStorage
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

/// Photos, recordings and documents: dropped or chosen, checked against
/// what the question takes, a photo scaled to `max-pixels`, stored in the
/// response's folder under a new name, shown, removed with Undo.
final class AttachmentControlTests: GtkTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("attachment-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    private static let survey = """
        | | type | name | label | parameters | body::accept | read_only |
        | | image | photo | Photo of the house | max-pixels=64 | | |
        | | image | plan | Floor plan | | | |
        | | file | report | Report | | .pdf | |
        | | audio | voice | Interview | | | |
        | | image | fixed | Fixed photo | | | yes |
        | | osm buildings | building | The building traced | | | |
        """

    /// A PNG of `width` × `height` red pixels in the test's folder.
    private static func png(_ folder: URL, _ name: String, width: Int32, height: Int32) throws -> String {
        let path = folder.appendingPathComponent(name).path
        let pixbuf = try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, width, height))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        gdk_pixbuf_fill(pixbuf, 0xff00_00ff)
        var error: UnsafeMutablePointer<GError>?
        XCTAssertNotEqual(gdk_pixbuf_savev(pixbuf, path, "png", nil, nil, &error), 0)
        return path
    }

    private static func text(_ folder: URL, _ name: String, _ content: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @MainActor private static func render(_ folder: URL, _ name: String) throws -> (RenderedQuestion, ResponseFiles) {
        try RenderedQuestion.withFiles(name, survey: survey, in: folder)
    }

    /// What the question says of the last file refused; `nil` when it took it.
    @MainActor private static func refusal(_ rendered: RenderedQuestion) -> String? {
        rendered.all(Label.self).first { $0.hasStyleClass("error") && $0.isVisible }?.text
    }

    /// Waits, by turning GLib's main loop, for the file being taken to be
    /// stored or refused.
    @MainActor private static func settle(_ rendered: RenderedQuestion) {
        let before = (rendered.state.value.value, refusal(rendered))
        XCTAssertTrue(GtkTest.pump(until: {
            (rendered.state.value.value, refusal(rendered)) != before
        }, timeout: 30), "the file was neither stored nor refused")
    }

    func testAPhotoDropped_isScaledToMaxPixels_storedUnderANewName_andShown() throws {
        let folder: URL = folder
        try MainActor.assumeIsolated {
            let (rendered, files) = try Self.render(folder, "photo")
            defer { rendered.close() }
            let button = try XCTUnwrap(rendered.all(Button.self).first { $0.accessibleLabel == "Photo of the house" })
            XCTAssertEqual(rendered.all(Label.self).first { $0.text == "No file chosen" }?.text, "No file chosen")

            let source = try Self.png(folder, "house.png", width: 400, height: 200)
            XCTAssertTrue(rendered.card._dropFiles([source]))
            Self.settle(rendered)
            let name = rendered.state.value.value
            XCTAssertTrue(name.wholeMatch(of: /\d+\.png/) != nil, name)
            let stored = try XCTUnwrap(files.url(of: name))
            var width: Int32 = 0, height: Int32 = 0
            XCTAssertNotNil(gdk_pixbuf_get_file_info(stored.path, &width, &height))
            XCTAssertEqual([width, height], [64, 32], "the longer side scaled to max-pixels")
            XCTAssertTrue(FileManager.default.fileExists(atPath: source), "the chosen file is left where it was")

            let picture = try rendered.widget(Picture.self)
            XCTAssertTrue(GtkTest.pump(until: { picture.imageSize != nil }, timeout: 30), "the preview is read off the main thread")
            XCTAssertEqual(picture.imageSize?.width, 64)
            XCTAssertTrue(picture.isVisible)
            XCTAssertTrue(rendered.all(Label.self).contains { $0.text.hasPrefix(name + " (") }, "named with its size")
            XCTAssertTrue(button.isSensitive)
        }
    }

    func testASmallPhoto_isKeptAsItIs() throws {
        let folder: URL = folder
        try MainActor.assumeIsolated {
            let (rendered, files) = try Self.render(folder, "plan")
            defer { rendered.close() }
            let source = try Self.png(folder, "plan.png", width: 30, height: 20)
            XCTAssertTrue(rendered.card._dropFiles([source]))
            Self.settle(rendered)
            let stored = try XCTUnwrap(files.url(of: rendered.state.value.value))
            XCTAssertEqual(try Data(contentsOf: stored), try Data(contentsOf: URL(fileURLWithPath: source)), "byte for byte")
        }
    }

    func testAFileThatIsNotWhatItsNameSays_isRefusedAtTheQuestion_andTheAnswerKept() throws {
        let folder: URL = folder
        try MainActor.assumeIsolated {
            let (rendered, _) = try Self.render(folder, "photo")
            defer { rendered.close() }
            XCTAssertTrue(rendered.card._dropFiles([try Self.png(folder, "first.png", width: 10, height: 10)]))
            Self.settle(rendered)
            let kept = rendered.state.value.value

            XCTAssertTrue(rendered.card._dropFiles([try Self.text(folder, "photo.jpg", "these are not pixels")]))
            Self.settle(rendered)
            XCTAssertEqual(rendered.state.value.value, kept)
            let message = try XCTUnwrap(Self.refusal(rendered), "shown at the question")
            XCTAssertTrue(message.contains("photo.jpg is text/plain, which this question does not take"), message)
            XCTAssertTrue(rendered.state.inputError.value.isValid, "the answer kept is valid: a submit is not held up")
        }
    }

    func testBodyAccept_decidesWhatAFileQuestionTakes() throws {
        let folder: URL = folder
        try MainActor.assumeIsolated {
            let (rendered, files) = try Self.render(folder, "report")
            defer { rendered.close() }
            XCTAssertTrue(rendered.card._dropFiles([try Self.text(folder, "notes.txt", "plain")]))
            Self.settle(rendered)
            XCTAssertEqual(rendered.state.value.value, "")
            XCTAssertTrue(Self.refusal(rendered)?.contains("it takes .pdf") == true)

            XCTAssertTrue(rendered.card._dropFiles([try Self.text(folder, "report.pdf", "%PDF-1.4\n%fake but named so")]))
            Self.settle(rendered)
            XCTAssertTrue(rendered.state.value.value.hasSuffix(".pdf"))
            XCTAssertNil(Self.refusal(rendered), "a good file clears the refusal")
            XCTAssertNotNil(files.url(of: rendered.state.value.value))
        }
    }

    func testAnOSMQuestion_takesOpenStreetMapData() throws {
        let folder: URL = folder
        try MainActor.assumeIsolated {
            let (rendered, files) = try Self.render(folder, "building")
            defer { rendered.close() }
            XCTAssertEqual(rendered.state.question.type, .osm)
            XCTAssertTrue(rendered.all(Button.self).contains { $0.label == "Choose Map Data…" })
            XCTAssertTrue(rendered.card._dropFiles([try Self.text(folder, "trace.gpx", "<gpx/>")]))
            Self.settle(rendered)
            XCTAssertTrue(Self.refusal(rendered)?.contains("it takes .osm") == true, Self.refusal(rendered) ?? "taken")

            let osm = #"<?xml version="1.0"?><osm version="0.6"><node id="-1" lat="1" lon="2"/></osm>"#
            XCTAssertTrue(rendered.card._dropFiles([try Self.text(folder, "building.osm", osm)]))
            Self.settle(rendered)
            XCTAssertTrue(rendered.state.value.value.hasSuffix(".osm"), rendered.state.value.value)
            let stored = try XCTUnwrap(files.url(of: rendered.state.value.value))
            XCTAssertEqual(try String(contentsOf: stored, encoding: .utf8), osm)
        }
    }

    func testAVanishedFile_isAClearMessage() throws {
        let folder: URL = folder
        try MainActor.assumeIsolated {
            let (rendered, _) = try Self.render(folder, "voice")
            defer { rendered.close() }
            XCTAssertTrue(rendered.card._dropFiles([folder.appendingPathComponent("gone.ogg").path]))
            Self.settle(rendered)
            XCTAssertEqual(Self.refusal(rendered), "gone.ogg cannot be read: it is missing or not a file.")
        }
    }

    func testRemove_clearsTheAnswer_andTheFormsUndoBringsItBack() throws {
        let folder: URL = folder
        try MainActor.assumeIsolated {
            let (rendered, files) = try Self.render(folder, "plan")
            defer { rendered.close() }
            XCTAssertTrue(rendered.card._dropFiles([try Self.png(folder, "plan.png", width: 12, height: 12)]))
            Self.settle(rendered)
            let name = rendered.state.value.value
            let remove = try XCTUnwrap(rendered.all(Button.self).first { $0.label == "Remove" })
            XCTAssertTrue(remove.isSensitive)
            twb_signal_emit(remove.pointer, "clicked")
            XCTAssertEqual(rendered.state.value.value, "")
            XCTAssertFalse(remove.isSensitive)
            XCTAssertTrue(FileManager.default.fileExists(atPath: files.url(of: name)!.path), "kept until the response is stored")
            rendered.viewModel.history.undo()
            XCTAssertEqual(rendered.state.value.value, name)
            XCTAssertTrue(remove.isSensitive)
        }
    }

    func testAReadOnlyQuestion_takesNoFile() throws {
        let folder: URL = folder
        try MainActor.assumeIsolated {
            let (rendered, _) = try Self.render(folder, "fixed")
            defer { rendered.close() }
            let buttons = rendered.all(Button.self)
            XCTAssertFalse(buttons.contains { $0.isSensitive }, "neither Choose nor Remove")
        }
    }

    func testAMissingStoredFile_saysSo() throws {
        let folder: URL = folder
        try MainActor.assumeIsolated {
            let (rendered, _) = try Self.render(folder, "plan")
            defer { rendered.close() }
            rendered.state.value.value = "1700000000000.png"
            XCTAssertTrue(rendered.all(Label.self).contains { $0.text == "1700000000000.png (missing)" })
        }
    }
}
