import Foundation
import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// `Window`: its size and maximized state, standing over another, its icon, a close
/// request heard while the window is whole.
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
}
