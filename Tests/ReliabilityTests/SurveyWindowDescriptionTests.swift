import CTwoWayBindingGtkShims
import Foundation
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// What the built-in survey's window description sets itself, so that the
/// window's code need not: undo belongs to the view model, and every text
/// widget's own undo stack is off.
final class SurveyWindowDescriptionTests: GtkTestCase {
    private static let description = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources/ui/survey-window.ui").path

    func testTextWidgets_haveTheirOwnUndoOff() throws {
        try MainActor.assumeIsolated {
            let builder = try Builder(file: Self.description)
            let window = try builder.object("surveyWindow", as: Widget.self)
            defer { GtkTest.destroy(window.pointer!) }
            for id in ["nameEntry", "companyEntry"] {
                let entry = try builder.object(id, as: Entry.self)
                XCTAssertEqual(gtk_editable_get_enable_undo(entry.pointer!.opaque), 0, "\(id) keeps no undo stack of its own")
            }
            let comments = try builder.object("commentsTextView", as: TextView.self)
            let buffer = gtk_text_view_get_buffer(comments.pointer!.cast(to: GtkTextView.self))
            XCTAssertEqual(gtk_text_buffer_get_enable_undo(buffer), 0, "the comments keep no undo stack of their own")
        }
    }
}
