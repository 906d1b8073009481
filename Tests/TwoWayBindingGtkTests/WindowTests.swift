import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// `Window`: its size and maximized state, standing over another, a close
/// request heard while the window is whole; and `FileChooser`'s answers.
final class WindowTests: GtkTestCase {
    func testSize_maximizing_andStandingOver() throws {
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
            var answers: [FileChooser.Choice] = []
            weak var shown: FileChooser?
            do {
                let chooser = FileChooser(
                    title: "Export Responses", purpose: .save(suggestedName: "responses.csv"),
                    acceptLabel: "_Export", cancelLabel: "_Cancel", over: nil
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
}
