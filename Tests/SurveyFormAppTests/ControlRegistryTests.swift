import FormEngine
import Foundation
@testable import SurveyFormApp
import XCTest

/// Which control the registry gives each question, from its type, its
/// parameters and its appearances.
final class ControlRegistryTests: XCTestCase {
    @MainActor
    func testEachQuestionGetsTheControlOfItsTypeAndAppearance() async throws {
        let form = try FormDefinition(data: Data("""
            | survey |
            | | type | name | label | appearance | constraint | parameters | calculation |
            | | text | line | Line | | | |
            | | text | lines | Lines | multiline | | |
            | | text | shouted | Shouted | MULTILINE | | |
            | | integer | age | Age | | . >= 0 and . <= 120 | |
            | | integer | count | Count | | | |
            | | decimal | share | Share | | . > 3 | |
            | | range | level | Level | | | start=0 end=10 step=1 |
            | | acknowledge | consent | Consent | | | |
            | | select_one yn | radio | Radio | | | |
            | | select_one yn | menu | Menu | quick minimal | | |
            | | select_one yn | likert | Likert | likert | | |
            | | select_multiple yn | ticks | Ticks | minimal | | |
            | | date | day | Day | | | |
            | | time | hour | Hour | | | |
            | | dateTime | moment | Moment | | | |
            | | note | note | Note | | | |
            | | text | site | Site | url | | |
            | | range | stars | Stars | rating | | |
            | | range | pick | Pick | picker | | |
            | | calculate | sum | | | | | 1 |
            | choices |
            | | list_name | name | label |
            | | yn | yes | Yes |
            | | yn | no | No |
            """.utf8), fileName: "form.md")
        let expected: [String: (any QuestionControlKind.Type)?] = [
            "line": EntryControl.self, "lines": TextAreaControl.self, "shouted": TextAreaControl.self,
            "age": NumberSpinControl.self, "count": EntryControl.self, "share": EntryControl.self,
            "level": RangeControl.self, "consent": AcknowledgeControl.self,
            "radio": ChoiceButtonsControl.self, "menu": DropDownControl.self, "likert": ChoiceButtonsControl.self,
            "ticks": ChoicePopoverControl.self, "site": LinkControl.self, "stars": RatingControl.self,
            "pick": RangePickerControl.self,
            "day": DateTimeControl.self, "hour": DateTimeControl.self, "moment": DateTimeControl.self,
            "note": nil, "sum": nil,
        ]
        XCTAssertEqual(Set(form.allQuestions.map(\.name)), Set(expected.keys))
        for question in form.allQuestions {
            let kind = ControlRegistry.kind(for: question).map { "\($0)" }
            XCTAssertEqual(kind, expected[question.name]!.map { "\($0)" }, question.name)
        }
    }

    @MainActor
    func testAnAppearanceIsAWholeWordOfTheColumn() async throws {
        let form = try FormDefinition(data: Data("""
            | survey |
            | | type | name | label | appearance |
            | | text | a | A | no-multiline |
            | | text | b | B | numbers  multiline |
            | | text | c | C | |
            """.utf8), fileName: "form.md")
        XCTAssertEqual(form.allQuestions.map { $0.hasAppearance("multiline") }, [false, true, false])
    }
}
