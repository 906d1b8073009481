import CTwoWayBindingGtkShims
import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

/// A rank: a list moved item by item with buttons a screen reader names,
/// stored as the whole order once ranked.
final class RankControlTests: GtkTestCase {
    private static let survey = """
        | | type | name | label | required |
        | | rank fruit | order | Rank the fruit | yes |
        """
    private static let choices = """
        | | list_name | name | label |
        | | fruit | apple | Apple |
        | | fruit | pear | Pear |
        | | fruit | plum | Plum |
        """

    @MainActor private static func click(_ rendered: RenderedQuestion, _ name: String) throws {
        let button = try XCTUnwrap(rendered.all(Button.self).first { $0.accessibleLabel == name || $0.label == name }, name)
        XCTAssertTrue(button.isSensitive, name)
        twb_signal_emit(button.pointer, "clicked")
    }

    @MainActor private static func focused(_ rendered: RenderedQuestion) -> Button? {
        rendered.all(Button.self).first(where: \.hasFocus)
    }

    @MainActor private static func rows(_ rendered: RenderedQuestion) -> [String] {
        rendered.all(Label.self).map(\.text).filter { $0.first?.isNumber == true }
    }

    func testItems_areMovedWithTheirButtons_andTheWholeOrderIsTheAnswer() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("order", survey: Self.survey, choices: Self.choices)
            defer { rendered.close() }
            XCTAssertEqual(try rendered.widget(ListBox.self).rowCount, 3, "a list a screen reader hears as one")
            XCTAssertEqual(Self.rows(rendered), ["1. Apple", "2. Pear", "3. Plum"])
            XCTAssertEqual(rendered.state.value.value, "", "not ranked yet")
            XCTAssertFalse(rendered.state.validation.value.isValid, "a required rank needs ranking")

            try Self.click(rendered, "Move Pear up")
            XCTAssertEqual(rendered.state.value.value, "pear apple plum")
            XCTAssertEqual(Self.rows(rendered), ["1. Pear", "2. Apple", "3. Plum"])
            let focused = rendered.all(Button.self).first(where: \.hasFocus)
            XCTAssertEqual(focused?.accessibleLabel, "Move Pear down", "focus stays with the item moved, at the top now")

            try Self.click(rendered, "Move Apple down")
            XCTAssertEqual(rendered.state.value.value, "pear plum apple")
            XCTAssertTrue(rendered.state.validation.value.isValid)

            rendered.viewModel.history.undo()
            XCTAssertEqual(rendered.state.value.value, "pear apple plum", "each move is one step of Undo")

            try Self.click(rendered, "Clear Ranking")
            XCTAssertEqual(rendered.state.value.value, "")
            XCTAssertEqual(Self.rows(rendered), ["1. Apple", "2. Pear", "3. Plum"])
            XCTAssertEqual(Self.focused(rendered)?.label, "Keep This Order", "Clear, insensitive now, hands the focus on")
            try Self.click(rendered, "Keep This Order")
            XCTAssertEqual(rendered.state.value.value, "apple pear plum")
            XCTAssertEqual(Self.focused(rendered)?.label, "Clear Ranking", "the keyboard is not left nowhere")
        }
    }

    func testAnItemDraggedWithThePointer_landsWhereItIsLetGo() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("order", survey: Self.survey, choices: Self.choices)
            defer { rendered.close() }
            let list = try rendered.widget(ListBox.self)
            let apple = try XCTUnwrap(rendered.all(Box.self).first { $0.children(ofType: Label.self).contains { $0.text == "1. Apple" } })
            rendered.present()
            XCTAssertTrue(GtkTest.pump(until: { list.allocatedHeight > 0 }), "the list laid out")
            let pitch = Double(list.allocatedHeight) / 3

            XCTAssertTrue(apple._pointerDrag(from: (10, 5), to: (10, 5 + pitch * 0.4)))
            XCTAssertEqual(rendered.state.value.value, "", "a click, or a twitch, is not a ranking")
            apple._pointerDrag(from: (10, 5), to: (10, 5 + pitch * 2))
            XCTAssertEqual(rendered.state.value.value, "pear plum apple", "two rows down")
            XCTAssertEqual(Self.rows(rendered), ["1. Pear", "2. Plum", "3. Apple"])

            let plum = try XCTUnwrap(rendered.all(Box.self).first { $0.children(ofType: Label.self).contains { $0.text == "2. Plum" } })
            plum._pointerDrag(from: (10, 5), to: (10, 5 - pitch * 5))
            XCTAssertEqual(rendered.state.value.value, "plum pear apple", "dragged past the top, it goes first")
        }
    }

    func testTheLastItem_cannotGoFurtherDown_norTheFirstUp() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("order", survey: Self.survey, choices: Self.choices)
            defer { rendered.close() }
            let buttons = rendered.all(Button.self)
            XCTAssertEqual(buttons.first { $0.accessibleLabel == "Move Apple up" }?.isSensitive, false)
            XCTAssertEqual(buttons.first { $0.accessibleLabel == "Move Plum down" }?.isSensitive, false)
        }
    }
}
