import FormEngine
import Foundation
import XCTest

/// What a select offers, past its list and filter: `${name}` in choice
/// labels filled in, and `randomize`/`seed` shuffling as pyxform's
/// `randomize()` itemset does.
final class ChoiceArrangementTests: XCTestCase {
    private static let choices = """
        | choices |
        | | list_name | name | label | label::Deutsch (de) |
        | | fruit | apple | Apple | Apfel |
        | | fruit | pear | Pear | Birne |
        | | fruit | plum | Plum | Pflaume |
        | | fruit | fig | Fig | Feige |
        | | fruit | kiwi | Kiwi | Kiwi |
        | | fruit | lime | Lime | Limette |
        """

    @MainActor private func form(_ survey: String, choices: String = choices) throws -> FormViewModel {
        try FormViewModel(definition: try FormFixtures.definition(survey + "\n" + choices))
    }

    @MainActor func testReferencesInChoiceLabels_followTheAnswerInEveryLanguage() async throws {
        let form = try form("""
            | survey |
            | | type | name | label | label::Deutsch (de) |
            | | text | who | Who? | Wer? |
            | | select_one fruit | pick | Pick | Wähle |
            """, choices: Self.choices.replacingOccurrences(of: "| Apple | Apfel |", with: "| Apple for ${who} | Apfel für ${who} |"))
        let choices = try XCTUnwrap(form.state(named: "pick")?.choices)
        XCTAssertEqual(choices.value.first?.shownLabel(in: nil), "Apple for ")
        form.state(named: "who")?.value.value = "Ana"
        XCTAssertEqual(choices.value.first?.shownLabel(in: nil), "Apple for Ana")
        XCTAssertEqual(choices.value.first?.shownLabel(in: "Deutsch (de)"), "Apfel für Ana")
        XCTAssertEqual(choices.value.map(\.name), ["apple", "pear", "plum", "fig", "kiwi", "lime"])
    }

    @MainActor func testASeededSelect_isShuffledAsRandomizeWithThatSeed_andFollowsTheSeed() async throws {
        let form = try form("""
            | survey |
            | | type | name | label | parameters | calculation |
            | | integer | s | Seed | | |
            | | select_one fruit | pick | Pick | randomize=true seed=${s} | |
            | | calculate | order | | | join(' ', randomize(instance('fruit')/root/item/name, ${s})) |
            """)
        let choices = try XCTUnwrap(form.state(named: "pick")?.choices)
        let order = try XCTUnwrap(form.state(named: "order"))
        form.state(named: "s")?.value.value = "7"
        let seven = choices.value.map(\.name)
        XCTAssertEqual(seven.joined(separator: " "), order.value.value, "the parameter orders as the function does")
        XCTAssertEqual(seven.sorted(), ["apple", "fig", "kiwi", "lime", "pear", "plum"])
        XCTAssertNotEqual(seven, ["apple", "pear", "plum", "fig", "kiwi", "lime"])

        form.state(named: "s")?.value.value = "8"
        XCTAssertEqual(choices.value.map(\.name).joined(separator: " "), order.value.value)
        XCTAssertNotEqual(choices.value.map(\.name), seven)
        form.state(named: "s")?.value.value = "7"
        XCTAssertEqual(choices.value.map(\.name), seven, "a seed gives the same order every time")
    }

    @MainActor func testAnUnseededSelect_keepsOneOrderWhileTheFilterNarrowsIt() async throws {
        let form = try form("""
            | survey |
            | | type | name | label | parameters | choice_filter |
            | | text | skip | Skip | | |
            | | select_multiple fruit | pick | Pick | randomize=true | name != ${skip} |
            """)
        let choices = try XCTUnwrap(form.state(named: "pick")?.choices)
        let first = choices.value.map(\.name)
        XCTAssertEqual(first.sorted(), ["apple", "fig", "kiwi", "lime", "pear", "plum"])
        form.state(named: "skip")?.value.value = "zzz"
        XCTAssertEqual(choices.value.map(\.name), first)
        form.state(named: "skip")?.value.value = "kiwi"
        XCTAssertEqual(choices.value.count, 5)
        XCTAssertFalse(choices.value.contains { $0.name == "kiwi" })
    }

    @MainActor func testRandomizeFalse_keepsTheSheetsOrder() async throws {
        let form = try form("""
            | survey |
            | | type | name | label | parameters |
            | | select_one fruit | pick | Pick | randomize=false |
            """)
        XCTAssertEqual(form.state(named: "pick")?.choices?.value.map(\.name), ["apple", "pear", "plum", "fig", "kiwi", "lime"])
    }

    func testSelectParameters_areCheckedAsPyxformChecksThem() {
        func problems(_ parameters: String) -> [String] {
            FormFixtures.problems("""
                | survey |
                | | type | name | label | parameters |
                | | integer | s | Seed | |
                | | select_one fruit | pick | Pick | \(parameters) |
                """ + "\n" + Self.choices).map(\.message)
        }
        XCTAssertEqual(problems("randomize=true seed=${s}"), [])
        XCTAssertEqual(problems("randomize=true seed=42"), [])
        XCTAssertEqual(problems("randomize=false"), [])
        XCTAssertTrue(problems("seed=42").first?.contains("randomize=true") == true)
        XCTAssertTrue(problems("randomize=yes").first?.contains("'yes'") == true)
        XCTAssertTrue(problems("randomize=true seed=abc").first?.contains("seed") == true)
        XCTAssertTrue(problems("columns=3").first?.contains("columns") == true)
    }

    @MainActor func testAFilterComparingAColumn_offersWhatTryingEveryChoiceOffers() async throws {
        let form = try FormViewModel(definition: try FormFixtures.definition("""
            | survey |
            | | type | name | label | choice_filter |
            | | text | d | District | |
            | | integer | n | Number | |
            | | text | size | Size | |
            | | select_one town | byText | By text | district = ${d} |
            | | select_one town | byNumber | By number | district = 3 |
            | | select_one town | byAnswer | By answer | district = ${n} |
            | | select_one town | both | Both | district = ${d} and size = 'big' |
            | | select_one town | mixed | Mixed | size = ${d} |
            | | select_one town | byName | By name | name = ${d} or name = 'b' |
            | choices |
            | | list_name | name | label | district | size |
            | | town | a | A | 03 | big |
            | | town | b | B | 3 | small |
            | | town | c | C | 04 | big |
            | | town | d | D | 03 | small |
            | | town | e | E | | |
            """))
        func offered(_ name: String) -> [String] { form.state(named: name)?.choices?.value.map(\.name) ?? ["?"] }
        form.state(named: "d")?.value.value = "03"
        XCTAssertEqual(offered("byText"), ["a", "d"], "text compares as text")
        XCTAssertEqual(offered("byNumber"), ["a", "b", "d"], "a number compares as a number: 03 = 3")
        form.state(named: "n")?.value.value = "3"
        XCTAssertEqual(offered("byAnswer"), ["b"], "two node-sets compare as text")
        XCTAssertEqual(offered("both"), ["a"])
        XCTAssertEqual(offered("byName"), ["b"], "an or is tried choice by choice")
        form.state(named: "d")?.value.value = "big"
        XCTAssertEqual(offered("mixed"), ["a", "c"])
        form.state(named: "d")?.value.value = "e"
        XCTAssertEqual(offered("byName"), ["b", "e"])
    }
}
