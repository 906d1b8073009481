@testable import FormEngine
import Foundation
import TwoWayBinding
import XCTest

/// The `appearance` column as the engine reads it: how selects lay out
/// their choices, how much of a date is asked, `table-list` groups, and
/// which words `--describe-form` warns no control honours.
final class AppearanceTests: XCTestCase {
    private func question(_ type: String, _ appearance: String) throws -> Question {
        let definition = try FormFixtures.definition("""
            | survey |
            | | type | name | label | appearance |
            | | \(type) | q | Q | \(appearance) |
            | choices |
            | | list_name | name | label |
            | | yn | yes | Yes |
            | | yn | no | No |
            """)
        return try XCTUnwrap(definition.allQuestions.first)
    }

    func testSelectLayouts_followTheAppearanceWords() throws {
        let expected: [(String, String, ChoiceLayout)] = [
            ("select_one yn", "", .list),
            ("select_one yn", "columns", .columns(nil)),
            ("select_one yn", "columns-3", .columns(3)),
            ("select_multiple yn", "Columns-2", .columns(2)),
            ("select_one yn", "columns-500", .columns(ChoiceLayout.maximumColumns)),
            ("select_one yn", "columns-pack", .packed),
            ("select_one yn", "horizontal-compact", .packed),
            ("select_one yn", "horizontal", .row),
            ("select_one yn", "quick likert", .likert),
            ("select_multiple yn", "likert", .list),
            ("select_one yn", "label", .labelsOnly),
            ("select_one yn", "list-nolabel", .buttonsOnly),
            ("text", "columns", .list),
        ]
        for (type, appearance, layout) in expected {
            XCTAssertEqual(try question(type, appearance).choiceLayout, layout, "\(type) \(appearance)")
        }
    }

    func testColumnCounts_areTheFormsOrSuitTheList() {
        XCTAssertEqual(ChoiceLayout.columns(3).columnCount(for: 10), 3)
        XCTAssertEqual(ChoiceLayout.columns(5).columnCount(for: 2), 2)
        XCTAssertEqual(ChoiceLayout.columns(nil).columnCount(for: 4), 4)
        XCTAssertEqual(ChoiceLayout.columns(nil).columnCount(for: 9), 3)
        XCTAssertEqual(ChoiceLayout.likert.columnCount(for: 5), 5)
        XCTAssertEqual(ChoiceLayout.list.columnCount(for: 5), 1)
    }

    func testUnhonouredAppearances_areWarnings_notProblems() throws {
        let definition = try FormFixtures.definition("""
            | survey |
            | | type | name | label | appearance |
            | | text | a | A | multiline printer |
            | | select_multiple yn | b | B | likert columns-2 |
            | | date | c | C | month-year ethiopian |
            | | integer | d | D | thousands-sep |
            | | geopoint | e | E | placement-map |
            | choices |
            | | list_name | name | label |
            | | yn | yes | Yes |
            """)
        let warnings = definition.warnings
        XCTAssertEqual(warnings.map(\.row), [2, 3, 4, 6])
        XCTAssertTrue(warnings[0].message.contains("'printer'"), warnings[0].message)
        XCTAssertTrue(warnings[1].message.contains("'likert'") && warnings[1].message.contains("select_multiple"), warnings[1].message)
        XCTAssertTrue(warnings[2].message.contains("'ethiopian'"), warnings[2].message)
        XCTAssertTrue(warnings[3].message.contains("'placement-map'"), warnings[3].message)
    }

    func testDatePrecision_followsMonthYearAndYear() throws {
        XCTAssertEqual(try question("date", "").datePrecision, .day)
        XCTAssertEqual(try question("date", "month-year").datePrecision, .month)
        XCTAssertEqual(try question("date", "year no-calendar").datePrecision, .year)
        XCTAssertEqual(try question("dateTime", "year").datePrecision, .day)
    }

    @MainActor func testAMonthOrYear_isStoredAsItsFirstDay_andShownAsTyped() async throws {
        let month = ValueTransform<String, String>.typed(.date, precision: .month)
        XCTAssertEqual(try month.toModel("2024-3").get(), "2024-03-01")
        XCTAssertEqual(try month.toModel(" 2024-11 ").get(), "2024-11-01")
        XCTAssertEqual(try month.toModel("2024-11-23").get(), "2024-11-01")
        XCTAssertEqual(try month.toModel("").get(), "")
        XCTAssertEqual(month.toControl("2024-03-01"), "2024-03")
        for refused in ["2024-13", "2024", "24-03", "March 2024", "2024-02-30"] {
            XCTAssertThrowsError(try month.toModel(refused).get(), refused)
        }

        let year = ValueTransform<String, String>.typed(.date, precision: .year)
        XCTAssertEqual(try year.toModel("1987").get(), "1987-01-01")
        XCTAssertEqual(year.toControl("1987-01-01"), "1987")
        for refused in ["87", "1987-05", "year"] {
            XCTAssertThrowsError(try year.toModel(refused).get(), refused)
        }
    }

    func testTableListGroups_makeEachSelectARowUnderTheFirstsLabels() throws {
        let definition = try FormFixtures.definition("""
            | survey |
            | | type | name | label | appearance |
            | | begin_group | grid | Grid | table-list |
            | | select_one yn | a | A | |
            | | select_one yn | b | B | minimal |
            | | end_group | | | |
            | | select_one yn | c | C | |
            | choices |
            | | list_name | name | label |
            | | yn | yes | Yes |
            """)
        let rows = definition.allQuestions.filter { $0.type.isSelect }
        XCTAssertEqual(rows.map(\.tableRow), [.first, .following, nil])
        XCTAssertEqual(rows.map(\.choiceLayout), [.buttonsOnly, .buttonsOnly, .list])
        // Described as written, as pyxform's sheet has it.
        XCTAssertEqual(rows[1].appearance, "minimal")
    }

    func testTableListGroups_refuseMixedListsAndFilters_asPyxformDoes() {
        let mixed = FormFixtures.problems("""
            | survey |
            | | type | name | label | choice_filter |
            | | begin_group | grid | Grid | |
            | | select_one yn | a | A | |
            | | select_one ab | b | B | |
            | | end_group | | | |
            | choices |
            | | list_name | name | label |
            | | yn | yes | Yes |
            | | ab | a | A |
            """)
        XCTAssertEqual(mixed, [], "outside a table-list, selects may use any lists")

        let table = """
            | survey |
            | | type | name | label | appearance | choice_filter |
            | | begin_group | grid | Grid | table-list | |
            | | select_one yn | a | A | | FILTER |
            | | select_one LIST | b | B | | |
            | | end_group | | | | |
            | choices |
            | | list_name | name | label |
            | | yn | yes | Yes |
            | | ab | a | A |
            """
        let filtered = FormFixtures.problems(table.replacingOccurrences(of: "FILTER", with: "name = 'yes'").replacingOccurrences(of: "LIST", with: "yn"))
        XCTAssertEqual(filtered.map(\.row), [3])
        XCTAssertTrue(filtered.first?.message.contains("choice_filter") == true)
        let differing = FormFixtures.problems(table.replacingOccurrences(of: "FILTER", with: "").replacingOccurrences(of: "LIST", with: "ab"))
        XCTAssertEqual(differing.map(\.row), [4])
        XCTAssertTrue(differing.first?.message.contains("'ab'") == true)
    }

    func testNumberSeparators_groupAndReadBackAsTheLocaleWrites() {
        let english = NumberSeparators.posix
        XCTAssertEqual(english.grouped("1234567.25"), "1,234,567.25")
        XCTAssertEqual(english.grouped("-1234"), "-1,234")
        XCTAssertEqual(english.grouped("999"), "999")
        XCTAssertEqual(english.grouped("abc"), "abc", "not a number: shown as stored")
        XCTAssertEqual(english.ungrouped("1,234,567.25"), "1234567.25")

        let german = NumberSeparators(locale: Locale(identifier: "de_DE"))
        XCTAssertEqual(german.grouped("1234567.25"), "1.234.567,25")
        XCTAssertEqual(german.ungrouped("1.234.567,25"), "1234567.25")
        XCTAssertEqual(german.ungrouped("1 234,5"), "1234.5")
        XCTAssertEqual(NumberSeparators(decimal: ",", grouping: ",").grouping, ".", "a grouping mark that is the decimal one is replaced")
    }

    @MainActor func testGroupedAndDigitsTransforms_storeXFormsNotation() async throws {
        let german = NumberSeparators(locale: Locale(identifier: "de_DE"))
        let decimal = ValueTransform<String, String>.grouped(.decimal, separators: german)
        XCTAssertEqual(decimal.toControl("1234.5"), "1.234,5")
        XCTAssertEqual(try decimal.toModel("12.345,75").get(), "12345.75")
        XCTAssertThrowsError(try decimal.toModel("12,3,4").get())
        let integer = ValueTransform<String, String>.grouped(.integer, separators: .posix)
        XCTAssertEqual(try integer.toModel("3,000,000").get(), "3000000")
        XCTAssertThrowsError(try integer.toModel("3,000.5").get())

        let comma = ValueTransform<String, String>.localDecimal(separators: german)
        XCTAssertEqual(comma.toControl("12.5"), "12,5")
        XCTAssertEqual(try comma.toModel("12,5").get(), "12.5")
        XCTAssertEqual(try comma.toModel("12.5").get(), "12.5", "a point typed from habit")
        XCTAssertThrowsError(try comma.toModel("1,2,3").get())
        XCTAssertEqual(ValueTransform<String, String>.localDecimal(separators: .posix).toControl("12.5"), "12.5")

        let digits = ValueTransform<String, String>.digitsText
        XCTAssertEqual(try digits.toModel("007 123-4").get(), "007 123-4", "kept as typed, leading zeros too")
        XCTAssertThrowsError(try digits.toModel("12a").get())
    }

    func testRangeValuesAndTickLabels_comeFromTheParameters() throws {
        let definition = try FormFixtures.definition("""
            | survey |
            | | type | name | label | parameters |
            | | range | r | R | start=0 end=1 step=0.1 tick_labelset=ends |
            | | range | s | S | start=1 end=5 |
            | | range | t | T | start=0 end=100000 step=1 |
            | choices |
            | | list_name | name | label |
            | | ends | 0 | None |
            | | ends | 1 | All |
            """)
        let questions = definition.allQuestions
        XCTAssertEqual(questions[0].rangeValues(limit: 100), ["0.0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0"])
        XCTAssertEqual(questions[1].rangeValues(limit: 10), ["1", "2", "3", "4", "5"])
        XCTAssertNil(questions[2].rangeValues(limit: 1_000), "past the limit")
        XCTAssertEqual(questions[0].tickLabels["1"]?.text(in: nil), "All")
        XCTAssertTrue(questions[1].tickLabels.isEmpty)
    }

    func testMaskedAnswers_areHidden() throws {
        XCTAssertTrue(try question("text", "masked").hidesAnswer)
        XCTAssertTrue(try question("barcode", "hidden-answer").hidesAnswer)
        XCTAssertFalse(try question("text", "numbers").hidesAnswer)
    }

    @MainActor func testTheSummary_showsAMonthAsTyped_andAMaskedAnswerAsDots() async throws {
        let form = try FormViewModel(definition: try FormFixtures.definition("""
            | survey |
            | | type | name | label | appearance |
            | | date | month | Month | month-year |
            | | text | secret | Secret | masked |
            """))
        form.state(named: "month")?.value.value = "2024-03-01"
        form.state(named: "secret")?.value.value = "hunter2"
        XCTAssertTrue(form.summary.value.contains("2024-03"), form.summary.value)
        XCTAssertFalse(form.summary.value.contains("2024-03-01"), form.summary.value)
        XCTAssertFalse(form.summary.value.contains("hunter2"), form.summary.value)
        XCTAssertTrue(form.summary.value.contains("•••"), form.summary.value)
    }
}
