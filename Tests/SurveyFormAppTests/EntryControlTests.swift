import CTwoWayBindingGtkShims
import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

final class EntryControlTests: GtkTestCase {
    private static let survey = """
        | | type | name | label | required |
        | | text | name | Name | yes |
        | | integer | count | Count | |
        | | barcode | code | Code | |
        """

    func testTextIsBoundBothWaysAndARequiredQuestionIsMarked() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("name", survey: Self.survey)
            defer { rendered.close() }
            let entry = try rendered.widget(Entry.self)
            XCTAssertEqual(entry.accessibleLabel, "Name")
            XCTAssertTrue(entry.isAccessibleRequired)
            XCTAssertFalse(entry.undoesTyping, "Ctrl+Z is the form's, question by question")
            XCTAssertEqual(rendered.all(Label.self).prefix(2).map(\.text), ["Name", "*"], "the label, and the mark beside it")

            entry.text = "Ada"
            XCTAssertEqual(rendered.state.value.value, "Ada")
            rendered.state.value.value = "Grace"
            XCTAssertEqual(entry.text, "Grace")
        }
    }

    func testANumberWithoutRangeIsTypedAndRefusedWhenItIsNotOne() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("count", survey: Self.survey)
            defer { rendered.close() }
            let entry = try rendered.widget(Entry.self)
            XCTAssertEqual(entry.inputPurpose, .digits)

            entry.text = "12"
            XCTAssertEqual(rendered.state.value.value, "12")
            entry.text = "twelve"
            XCTAssertEqual(rendered.state.value.value, "12", "what is not a number does not reach the answer")
            XCTAssertEqual(rendered.state.inputError.value.message, "Enter a whole number.", "and is refused with a message")
        }
    }

    func testABarcode_isTypedAsAScannerTypesIt() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("code", survey: Self.survey)
            defer { rendered.close() }
            let entry = try rendered.widget(Entry.self)
            XCTAssertEqual(entry.accessibleLabel, "Code")
            entry.text = "4006381333931"
            XCTAssertEqual(rendered.state.value.value, "4006381333931")
            twb_signal_emit(UnsafeMutableRawPointer(try XCTUnwrap(entry.pointer)), "activate")
            XCTAssertEqual(rendered.advances, 1, "the scanner's Enter moves on")
        }
    }

    func testEnterMovesOnToTheNextQuestion() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("name", survey: Self.survey)
            defer { rendered.close() }
            let entry = try rendered.widget(Entry.self)
            XCTAssertEqual(rendered.advances, 0)
            // Enter in an entry emits its `activate`.
            twb_signal_emit(UnsafeMutableRawPointer(try XCTUnwrap(entry.pointer)), "activate")
            XCTAssertEqual(rendered.advances, 1)
        }
    }
}
