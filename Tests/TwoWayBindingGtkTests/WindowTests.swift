import Foundation
import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// `Window`: its size and maximized state, standing over another, its icon, a close
/// request heard while the window is whole; and `FileChooser`'s answers.
final class WindowTests: GtkTestCase {
    func testSize_maximizing_standingOver_andIcon() throws {
        try MainActor.assumeIsolated {
            let parent = try Window.wrapping(gtk_window_new()!)
            let window = try Window.wrapping(gtk_window_new()!)
            defer { window.close(); parent.close() }
            window.defaultSize = (640, 480)
            XCTAssertTrue(window.defaultSize == (640, 480))
            window.title = "Preferences"
            XCTAssertEqual(window.title, "Preferences")
            window.standOver(parent)
            XCTAssertEqual(try window.value(of: .boolean("modal")), true)
            let transient = gtk_window_get_transient_for(window.pointer!.cast(to: GtkWindow.self))
            XCTAssertEqual(transient.map(UnsafeMutableRawPointer.init), parent.pointer.map(UnsafeMutableRawPointer.init))
            window.standOver(nil, modal: false)
            XCTAssertNil(gtk_window_get_transient_for(window.pointer!.cast(to: GtkWindow.self)))
            XCTAssertFalse(window.isMaximized)
            XCTAssertNil(window.iconName, "a window shows the default icon until it names its own")
            window.iconName = "io.github.surveyform.SurveyForm"
            XCTAssertEqual(window.iconName, "io.github.surveyform.SurveyForm")
            window.iconName = nil
            XCTAssertNil(window.iconName)
        }
    }

    func testACloseRequest_isHeardWhileTheWindowIsWhole() throws {
        try MainActor.assumeIsolated {
            let window = try Window.wrapping(gtk_window_new()!)
            window.defaultSize = (700, 500)
            var sizeAtClose: (width: Int, height: Int)?
            let token = window.onCloseRequest { sizeAtClose = window.defaultSize }
            defer { token.cancel() }
            window.present()
            window.close()
            GtkTest.pump()
            XCTAssertTrue(sizeAtClose.map { $0 == (700, 500) } ?? false, "\(String(describing: sizeAtClose))")
            XCTAssertNil(window.pointer, "and then it closed")
            XCTAssertTrue(window.defaultSize == (0, 0), "a closed window has no size to give")
        }
    }

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
