import FormEngine
import Foundation
import XCTest

final class FormDefinitionTests: XCTestCase {
    func testAliasesOfColumnsTypesAndSettingsReadAsTheirCanonicalNames() throws {
        let form = try FormFixtures.definition("""
            | settings |
            | | id_string | Form Title | version |
            | | my_form | My   form | 2024091201 |
            | survey |
            | | command | name | caption | readonly | bind::relevant | Constraint Message | repeat count |
            | | int | age | Age | yes | | Too old | |
            | | select one yn | likes | Likes? | | ${age} > 3 | | |
            | | begin_repeat | kids | Kids | | | | ${age} |
            | | gps | where | Where | | | | |
            | | end repeat | | | | | | |
            | choices |
            | | List Name | value | label |
            | | yn | y | Yes |
            | | yn | n | No |
            """)
        XCTAssertEqual(form.settings, FormSettings(id: "my_form", version: "2024091201", title: "My   form",
                                                   defaultLanguage: nil, instanceName: nil))
        let questions = form.allQuestions
        XCTAssertEqual(questions.map(\.type.name), ["integer", "select_one", "repeat", "geopoint"])
        XCTAssertEqual(questions.map(\.pathString), ["age", "likes", "kids", "kids/where"])
        XCTAssertEqual(questions[0].readOnly, .yes)
        XCTAssertEqual(questions[0].constraintMessage.byLanguage, ["default": "Too old"])
        XCTAssertEqual(questions[1].relevant, "${age} > 3")
        XCTAssertEqual(questions[1].listName, "yn")
        XCTAssertEqual(questions[2].repeatCount, "${age}")
        XCTAssertEqual(form.choiceLists["yn"]?.choices.map(\.name), ["y", "n"])
    }

    func testTranslationsAndTheLanguagesOfTheForm() throws {
        let form = try FormFixtures.definition("""
            | survey |
            | | type | name | label::Deutsch (de) | label::English (en) | hint::Français (fr) |
            | | text | a | Name | Name | Nom |
            | choices |
            | | list_name | name | label |
            | | l | x | X |
            """)
        XCTAssertEqual(form.languages, ["Deutsch (de)", "English (en)", "Français (fr)", "default"])
        XCTAssertEqual(form.allQuestions[0].label.byLanguage, ["Deutsch (de)": "Name", "English (en)": "Name"])
        XCTAssertEqual(form.allQuestions[0].hint.text(in: "Français (fr)"), "Nom")
    }

    func testSingleColonTranslationsWhenNoHeaderUsesTwo() throws {
        let form = try FormFixtures.definition("""
            | survey |
            | | type | name | label:English (en) | jr:count |
            | | text | a | Name | |
            """)
        XCTAssertEqual(form.allQuestions[0].label.byLanguage, ["English (en)": "Name"])
    }

    func testTheIDFallsBackToTheFileNameAndTheTitleToTheID() throws {
        let form = try FormFixtures.definition("""
            | survey |
            | | type | name | label |
            | | text | a | A |
            """, file: "household.survey.md")
        XCTAssertEqual(form.settings.id, "household.survey")
        XCTAssertEqual(form.settings.title, "household.survey")
        XCTAssertNil(form.settings.version)
    }

    func testSurveyTextIsTrimmedWithRunsOfSpacesCollapsed() throws {
        let form = try FormFixtures.definition("""
            | survey |
            | | type | name | label |
            | | begin  group | g | A   label |
            | | text | a | “quoted” |
            | | end group | | |
            """)
        XCTAssertEqual(form.allQuestions.map(\.type), [.group, .text])
        XCTAssertEqual(form.allQuestions[0].label.text(in: nil), "A label")
        XCTAssertEqual(form.allQuestions[1].label.text(in: nil), "\"quoted\"")
    }

    func testRangeParametersHaveXLSFormDefaults() throws {
        let form = try FormFixtures.definition("""
            | survey |
            | | type | name | label | parameters |
            | | range | a | A | |
            | | range | b | B | start=0 end=60 step=0.5 |
            """)
        XCTAssertEqual(form.allQuestions[0].rangeParameters?.end, 10)
        XCTAssertEqual(form.allQuestions[1].rangeParameters?.step, 0.5)
    }

    func testANumberQuestionOffersTheRangeItsConstraintAllows() throws {
        let form = try FormFixtures.definition("""
            | survey |
            | | type | name | label | constraint |
            | | integer | age | Age | . >= 0 and . <= 120 |
            | | integer | count | Count | . > 0 and . < 10 |
            | | decimal | temperature | Temperature | . >= 34.5 and . <= 42 |
            | | decimal | dose | Dose | . > 0 and . <= 5 |
            | | integer | floor | Floor | . >= 0 |
            | | text | code | Code | . >= 1 and . <= 9 |
            """)
        let ranges = form.allQuestions.map(\.constrainedRange)
        XCTAssertEqual(ranges, [0...120, 1...9, 34.5...42, nil, nil, nil])
    }

    // MARK: - Forms that are wrong

    func testEveryProblemNamesItsSheetAndRow() {
        let problems = FormFixtures.problems("""
            | survey |
            | | type | name | label | relevant |
            | | txt | a | A | |
            | | select_one missing | b | B | |
            | | text | c | C | ${nobody} > 1 |
            | | text | c | C again | |
            | | begin group | g | G | |
            | | calculate | d | | |
            | choices |
            | | list_name | name | label |
            | | yn | y | Yes |
            | | yn | y | Yes again |
            """)
        let described = problems.map(\.description)
        XCTAssertTrue(described.contains("survey row 2: Unknown question type 'txt'."), "\(described)")
        XCTAssertTrue(described.contains { $0.hasPrefix("survey row 3: The choice list 'missing'") }, "\(described)")
        XCTAssertTrue(described.contains { $0.hasPrefix("survey row 4: ") && $0.contains("${nobody}") }, "\(described)")
        XCTAssertTrue(described.contains { $0.hasPrefix("survey row 5: The name 'c' is already used") }, "\(described)")
        XCTAssertTrue(described.contains { $0.hasPrefix("survey row 6: Unmatched 'begin_group'") }, "\(described)")
        XCTAssertTrue(described.contains("survey row 7: The calculate row has no calculation."), "\(described)")
        XCTAssertTrue(described.contains { $0.hasPrefix("choices row 3: The choice name 'y'") }, "\(described)")
    }

    func testAnEndWithoutABeginAndANameReferencedTwice() {
        let described = FormFixtures.problems("""
            | survey |
            | | type | name | label | relevant |
            | | begin group | g1 | G | |
            | | text | a | A | |
            | | end group | | | |
            | | begin group | g2 | G | |
            | | text | a | A | |
            | | end group | | | |
            | | text | b | B | ${a} = '' |
            | | end repeat | | | |
            """).map(\.description)
        XCTAssertTrue(described.contains { $0.hasPrefix("survey row 8: ") && $0.contains("more than one question") }, "\(described)")
        XCTAssertTrue(described.contains { $0.hasPrefix("survey row 9: Unmatched 'end_repeat'") }, "\(described)")
    }

    func testAFormWithoutASurveySheetOrATypeColumn() {
        XCTAssertEqual(FormFixtures.problems("| settings |\n| | form_id |\n| | x |\n| choices |\n| | list_name |").map(\.description),
                       ["The form has no sheet named 'survey'."])
        XCTAssertEqual(FormFixtures.problems("| survey |\n| | name | label |\n| | a | A |").map(\.description),
                       ["survey: The sheet has no 'type' column."])
    }

    // MARK: - Describing

    func testTheDescriptionIsTheContractsJSON() throws {
        let form = try FormFixtures.definition("""
            | settings |
            | | form_id | version | default_language |
            | | f | 3 | English (en) |
            | survey |
            | | type | name | label::English (en) | required | parameters |
            | | range | r | R | TRUE | step=2 |
            | | select_one_from_file cities.csv | c | City | ${r} > 2 | |
            """)
        XCTAssertEqual(form.jsonDescription.text, """
            {"id":"f","version":"3","title":"f","default_language":"English (en)","languages":["English (en)"],"questions":[\
            {"name":"r","path":"r","type":"range","list":null,"choices":null,"required":true,"read_only":false,\
            "relevant":null,"constraint":null,"calculation":null,"choice_filter":null,"appearance":null,\
            "label":{"English (en)":"R"},"parameters":{"start":1,"end":10,"step":2}},\
            {"name":"c","path":"c","type":"select_one_from_file","list":"cities.csv","choices":null,"required":"${r} > 2",\
            "read_only":false,"relevant":null,"constraint":null,"calculation":null,"choice_filter":null,"appearance":null,\
            "label":{"English (en)":"City"},"parameters":null}]}
            """)
    }

    func testANumbersOwnBoundsAreReadAndCheckedLikeARangesParameters() throws {
        let definition = try FormFixtures.definition("""
            | survey |
            | | type | name | label | parameters |
            | | decimal | years | Years | start=0 end=60 step=0.5 |
            | | integer | count | Count | start=1 end=9 |
            | | integer | plain | Plain | |
            """)
        let questions = definition.allQuestions
        XCTAssertEqual(questions[0].declaredBounds?.range, 0...60)
        XCTAssertEqual(questions[0].declaredBounds?.step, 0.5)
        XCTAssertEqual(questions[1].declaredBounds?.step, 1, "the step is 1 unless given")
        XCTAssertNil(questions[2].declaredBounds)

        let problems = FormFixtures.problems("""
            | survey |
            | | type | name | label | parameters |
            | | decimal | a | A | start=5 end=1 |
            | | decimal | b | B | start=x end=1 |
            | | decimal | c | C | start=0 end=1 step=-1 |
            | | decimal | d | D | end=10 |
            """).map(\.description)
        XCTAssertEqual(problems.count, 4, "\(problems)")
        XCTAssertTrue(problems[0].hasPrefix("survey row 2: ") && problems[0].contains("below its 'end'"), "\(problems)")
        XCTAssertTrue(problems[1].contains("must be a number"), "\(problems)")
        XCTAssertTrue(problems[2].contains("'step' must be above 0"), "\(problems)")
        XCTAssertTrue(problems[3].contains("both 'start' and 'end'"), "\(problems)")
    }
}
