import CTwoWayBindingGtkShims
import FormEngine
import Foundation
import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBinding
import TwoWayBindingGtk
import XCTest

/// Images, recordings and videos in labels, from the form's media folder,
/// in the current language; a missing one said at the question.
final class LabelMediaTests: GtkTestCase {
    private static let survey = """
        | | type | name | label::English (en) | label::Français (fr) | media::image::English (en) | media::image::Français (fr) | media::audio::English (en) |
        | | integer | goats | | | goat.png | chevre.png | |
        | | text | intro | Welcome | Bienvenue | | | welcome.ogg |
        """

    func testTheImageIsTheLabelAndFollowsTheLanguage() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("label-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("goat.png").path
        let pixbuf = try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 64, 32))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        gdk_pixbuf_fill(pixbuf, 0x00ff_00ff)
        var error: UnsafeMutablePointer<GError>?
        XCTAssertNotEqual(gdk_pixbuf_savev(pixbuf, path, "png", nil, nil, &error), 0)

        try MainActor.assumeIsolated {
            MainLoopBridge.install()
            let rendered = try RenderedQuestion("goats", survey: Self.survey, media: FormMedia(folders: [folder]))
            defer { rendered.close() }
            rendered.viewModel.language.value = "English (en)"
            let picture = try rendered.widget(Picture.self)
            GtkTest.pump()
            XCTAssertNil(picture.imageSize, "an image is read once its question is drawn, not as the card is built")
            rendered.present()
            XCTAssertTrue(GtkTest.pump(until: { picture.imageSize != nil }, timeout: 30), "the image read off the main thread")
            XCTAssertEqual(picture.imageSize?.width, 64)
            XCTAssertEqual(picture.accessibleLabel, "goat.png", "an image that is the whole label is named by its file")

            rendered.viewModel.language.value = "Français (fr)"
            let message = "The image “chevre.png” is missing from the form’s media folder."
            XCTAssertTrue(rendered.all(Label.self).contains { $0.text == message }, "a missing image is said at the question")
            XCTAssertTrue(rendered.all(Picture.self).isEmpty)
        }
    }

    func testARecordingIsPlayedByTheDesktopsApplication() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("label-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("OggS".utf8).write(to: folder.appendingPathComponent("welcome.ogg"))
        try MainActor.assumeIsolated {
            let withFile = try RenderedQuestion("intro", survey: Self.survey, media: FormMedia(folders: [folder]))
            defer { withFile.close() }
            XCTAssertTrue(withFile.all(Button.self).contains { $0.label == "Play Recording" })
            let without = try RenderedQuestion("intro", survey: Self.survey)
            defer { without.close() }
            XCTAssertTrue(without.all(Label.self).contains { $0.text == "The file “welcome.ogg” is missing from the form’s media folder." })
        }
    }
}
