import CTwoWayBindingGtkShims
import FormEngine
import Foundation
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

    func testAppearances_digitsOnly_groupedThousands_andMaskedText() throws {
        try MainActor.assumeIsolated {
            let survey = """
                | | type | name | label | appearance |
                | | text | phone | Phone | numbers |
                | | decimal | income | Income | thousands-sep |
                | | text | pin | PIN | masked |
                """
            let phone = try RenderedQuestion("phone", survey: survey)
            defer { phone.close() }
            let phoneEntry = try phone.widget(Entry.self)
            XCTAssertEqual(phoneEntry.inputPurpose, .number)
            phoneEntry.text = "0049 30"
            XCTAssertEqual(phone.state.value.value, "0049 30", "kept as text, leading zeros and all")
            phoneEntry.text = "0049 30x"
            XCTAssertEqual(phone.state.value.value, "0049 30", "a letter is refused")
            XCTAssertFalse(phone.state.inputError.value.isValid)

            let german = NumberSeparators(locale: Locale(identifier: "de_DE"))
            let income = try RenderedQuestion("income", survey: survey, numberSeparators: german)
            defer { income.close() }
            let incomeEntry = try income.widget(Entry.self)
            income.state.value.value = "1234567.5"
            XCTAssertEqual(incomeEntry.text, "1.234.567,5")
            incomeEntry.text = "2500,25"
            XCTAssertEqual(income.state.value.value, "2500.25", "stored in XForms notation")
            XCTAssertEqual(incomeEntry.text, "2500,25", "left as typed while typing")
            twb_signal_emit(try XCTUnwrap(incomeEntry.pointer), "activate")
            XCTAssertEqual(incomeEntry.text, "2.500,25", "grouped once committed")

            let pin = try RenderedQuestion("pin", survey: survey)
            defer { pin.close() }
            XCTAssertTrue(try pin.widget(Entry.self).hidesText)
            XCTAssertFalse(phoneEntry.hidesText)
        }
    }
}
