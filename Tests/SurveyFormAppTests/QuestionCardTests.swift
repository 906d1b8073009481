import CTwoWayBindingGtkShims
import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

/// What a question's card does around its control, whatever the control.
final class QuestionCardTests: GtkTestCase {
    private static let required = "This question requires an answer."

    @MainActor private static func message(_ rendered: RenderedQuestion) throws -> Label {
        try XCTUnwrap(rendered.all(Label.self).first { $0.text == required }, "the card shows why")
    }

    /// Whether the keyboard focus is in `widget` (an entry's focus is on its text inside).
    @MainActor private static func focusIsIn(_ widget: Widget) -> Bool {
        guard let pointer = widget.pointer, let root = gtk_widget_get_root(pointer),
              let focus = gtk_root_get_focus(root) else { return false }
        return focus == pointer || gtk_widget_is_ancestor(focus, pointer) != 0
    }

    /// A required question that is read-only and blank refuses the submit,
    /// as Collect refuses it, and its control cannot take focus: the focus
    /// goes to the message saying why, which a screen reader reads.
    func testAReadOnlyQuestionsFocusGoesToItsMessage() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("code", survey: """
                | | type | name | label | required | read_only |
                | | text | code | Site code | yes | yes |
                """)
            defer { rendered.close() }
            rendered.present()
            XCTAssertFalse(rendered.control.shown.isSensitive, "a read-only control takes no answer")
            rendered.viewModel.revealProblems()
            let message = try Self.message(rendered)
            XCTAssertTrue(message.isVisible)

            rendered.control.focus()
            XCTAssertTrue(GtkTest.pump { message.hasFocus }, "the message holds the focus")
        }
    }

    /// Read-only by an expression: while it holds, the message takes the
    /// focus; once the question takes answers, its control does again.
    func testAQuestionReadOnlyWhileAnotherIsBlank() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("code", survey: """
                | | type | name | label | required | read_only |
                | | text | site | Site | | |
                | | text | code | Site code | yes | ${site} = '' |
                """)
            defer { rendered.close() }
            rendered.present()
            rendered.viewModel.revealProblems()
            let message = try Self.message(rendered)
            XCTAssertTrue(message.isSelectable, "focusable while read-only")
            rendered.control.focus()
            XCTAssertTrue(GtkTest.pump { message.hasFocus })

            let site = try XCTUnwrap(rendered.viewModel.states.first { $0.question.name == "site" })
            site.value.value = "North"
            XCTAssertTrue(rendered.control.shown.isSensitive)
            XCTAssertFalse(message.isSelectable, "no stop of its own once the control takes answers")
            rendered.control.focus()
            let entry = try rendered.widget(Entry.self)
            XCTAssertTrue(GtkTest.pump { Self.focusIsIn(entry) }, "the control holds the focus")
        }
    }
}
