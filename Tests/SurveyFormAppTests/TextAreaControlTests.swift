import CTwoWayBindingGtkShims
import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

final class TextAreaControlTests: GtkTestCase {
    private static let survey = """
        | | type | name | label | hint | appearance |
        | | text | comments | Comments | Anything else? | multiline |
        """

    func testATextViewBoundBothWaysThatTabLeaves() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("comments", survey: Self.survey)
            defer { rendered.close() }
            let text = try rendered.widget(TextView.self)
            XCTAssertFalse(text.acceptsTab, "Tab moves on to the next question")
            XCTAssertFalse(text.undoesTyping, "Ctrl+Z is the form's, question by question")
            XCTAssertEqual(text.accessibleLabel, "Comments")
            XCTAssertEqual(text.accessibleDescription, "Anything else?")

            let buffer = gtk_text_view_get_buffer(text.pointer?.cast())
            gtk_text_buffer_insert_interactive_at_cursor(buffer, "First line\nsecond line", -1, 1)
            XCTAssertEqual(rendered.state.value.value, "First line\nsecond line")
            rendered.state.value.value = "From the model"
            XCTAssertEqual(text.text, "From the model")
        }
    }
}
