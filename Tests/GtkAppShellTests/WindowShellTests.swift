import Foundation
import CTwoWayBindingGtkShims
import GtkAppShell
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// What the shell adds to a window: a file chooser over it, and its screenshot.
final class WindowShellTests: GtkTestCase {
    func testAFileChooser_answersOnce_andKeepsItselfUntilThen() throws {
        try MainActor.assumeIsolated {
            let parent = try Window.wrapping(gtk_window_new()!)
            defer { parent.close() }
            var answers: [FileChooser.Choice] = []
            weak var shown: FileChooser?
            do {
                let chooser = FileChooser(
                    title: "Export Responses", purpose: .save(suggestedName: "responses.csv"),
                    acceptLabel: "_Export", cancelLabel: "_Cancel", over: parent
                )
                chooser.addFilter("CSV files", patterns: ["*.csv"])
                chooser.show { answers.append($0) }
                XCTAssertTrue(chooser.isShown)
                chooser.show { _ in XCTFail("shown already: a second show does nothing") }
                shown = chooser
            }
            XCTAssertNotNil(shown, "shown, the chooser keeps itself")
            shown?._respond(accepted: false)
            GtkTest.pump()
            XCTAssertEqual(answers, [.cancelled])
            XCTAssertNil(shown, "answered, it lets itself go")
        }
    }

    func testAScreenshot_isThePNGOfTheWindowAsDrawn() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("window-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let window = try await MainActor.run {
            let window = try Window.wrapping(gtk_window_new()!)
            window.defaultSize = (320, 200)
            window.present()
            // No GLib main loop runs under XCTest: lay the window out by hand.
            for _ in 0..<200 where gtk_widget_get_width(window.pointer!) == 0 {
                GtkTest.pump()
                usleep(10_000)
            }
            return window
        }
        try await window.saveScreenshot(to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")
        await MainActor.run { window.close() }
        do {
            try await window.saveScreenshot(to: path)
            XCTFail("a closed window has nothing to show")
        } catch {
            XCTAssertEqual(error, .notShown)
        }
    }
}
