import FormEngine
import Foundation
import TwoWayBinding
import XCTest

final class FormViewModelTests: XCTestCase {
    private static let fixedNow = Date(timeIntervalSince1970: 1_700_000_000) // 2023-11-14T22:13:20Z

    @MainActor
    private func model(_ markdown: String, language: String? = nil) throws -> FormViewModel {
        let environment = FormEnvironment(
            now: { Self.fixedNow }, timeZone: TimeZone(identifier: "UTC")!,
            deviceID: "device-1", username: "ada", newInstanceID: { "uuid:\(UUID().uuidString.lowercased())" }
        )
        return try FormViewModel(definition: FormFixtures.definition(markdown), language: language, environment: environment)
    }

    // MARK: - Relevance

    @MainActor func testRelevanceFollowsAnswersAndIsInheritedFromGroups() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | relevant |
            | | integer | age | Age | |
            | | begin group | adult | Adult | ${age} >= 18 |
            | | text | job | Job | |
            | | end group | | | |
            | | text | why | Why? | ${job} = 'none' |
            """)
        let age = try XCTUnwrap(form.state(named: "age"))
        let job = try XCTUnwrap(form.state(named: "job"))
        let why = try XCTUnwrap(form.state(named: "why"))
        XCTAssertFalse(job.isRelevant.value, "an empty age is NaN, and NaN >= 18 is false")
        age.value.value = "30"
        XCTAssertTrue(job.isRelevant.value)
        job.value.value = "none"
        XCTAssertTrue(why.isRelevant.value)
        age.value.value = "12"
        XCTAssertFalse(job.isRelevant.value)
        XCTAssertFalse(why.isRelevant.value, "a non-relevant answer reads as empty in expressions")
        XCTAssertEqual(job.value.value, "none", "the answer is kept, should the group come back")
        XCTAssertFalse(form.answers().contains { $0.path == "adult/job" }, "and left out of the submission")
    }

    // MARK: - Calculations

    @MainActor func testCalculationsUpdateInDependencyOrderOnceEach() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | calculation |
            | | decimal | a | A | |
            | | calculate | plus | | ${a} + 1 |
            | | calculate | twice | | ${a} * 2 |
            | | calculate | both | | ${plus} + ${twice} |
            | | note | show | Both is ${both} | |
            """)
        let a = try XCTUnwrap(form.state(named: "a"))
        let both = try XCTUnwrap(form.state(named: "both"))
        var seen: [String] = []
        let token = both.value.observe { seen.append($0) }
        a.value.value = "2"
        a.value.value = "5"
        XCTAssertEqual(seen, ["7", "16"], "one update per change, never a mix of old and new inputs")
        XCTAssertEqual(form.state(named: "show")?.label.value, "Both is 16")
        _ = token
    }

    @MainActor func testACalculationReadsOnlyWhatItDependsOn() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | calculation |
            | | text | a | A | |
            | | text | b | B | |
            | | calculate | ca | | concat(${a}, '!') |
            | | calculate | cb | | concat(${b}, '?') |
            """)
        var calls = 0
        let token = try XCTUnwrap(form.state(named: "cb")).value.observe { _ in calls += 1 }
        form.state(named: "a")?.value.value = "x"
        XCTAssertEqual(form.state(named: "ca")?.value.value, "x!")
        XCTAssertEqual(calls, 0)
        form.state(named: "b")?.value.value = "y"
        XCTAssertEqual(calls, 1)
        _ = token
    }

    // MARK: - Validation

    @MainActor func testTypesThatBringAConstraint_enforceItUnlessTheRowWritesItsOwn() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | constraint |
            | | percentage | share | Share | |
            | | phone number | phone | Phone | |
            | | number of days in last month | days | Days | |
            | | percentage | loose | Loose | . <= 1000 |
            """)
        let share = try XCTUnwrap(form.state(named: "share"))
        share.value.value = "100"
        XCTAssertEqual(share.validation.value, .valid)
        share.value.value = "101"
        XCTAssertFalse(share.validation.value.isValid, "pyxform's percentage is 0 to 100, as Collect checks it")
        let phone = try XCTUnwrap(form.state(named: "phone"))
        phone.value.value = "0301234"
        XCTAssertEqual(phone.validation.value, .valid)
        phone.value.value = "030-1234"
        XCTAssertFalse(phone.validation.value.isValid, "a phone number is digits")
        let days = try XCTUnwrap(form.state(named: "days"))
        days.value.value = "32"
        XCTAssertFalse(days.validation.value.isValid)
        let loose = try XCTUnwrap(form.state(named: "loose"))
        loose.value.value = "500"
        XCTAssertEqual(loose.validation.value, .valid, "the row's own constraint replaces the type's")
        XCTAssertEqual(share.question.constrainedRange, 0...100, "a spin button offers what the type allows")
    }

    @MainActor func testRequiredAndConstraintMessagesAndTheFormsVerdict() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | required | required_message | constraint | constraint_message |
            | | text | name | Name | yes | Tell us your name. | | |
            | | integer | age | Age | | | . >= 0 and . <= 120 | Between 0 and 120. |
            | | integer | kids | Kids | ${age} > 20 | | | |
            """)
        let name = try XCTUnwrap(form.state(named: "name"))
        let age = try XCTUnwrap(form.state(named: "age"))
        let kids = try XCTUnwrap(form.state(named: "kids"))
        XCTAssertEqual(name.validation.value, .invalid("Tell us your name."))
        XCTAssertEqual(age.validation.value, .valid, "a blank answer passes any constraint")
        XCTAssertFalse(form.isValid.value)
        XCTAssertEqual(form.firstProblem?.state.question.name, "name")
        name.value.value = "Ada"
        XCTAssertTrue(form.isValid.value)
        age.value.value = "130"
        XCTAssertEqual(age.validation.value, .invalid("Between 0 and 120."))
        XCTAssertFalse(form.isValid.value)
        age.value.value = "30"
        XCTAssertTrue(kids.isRequired.value)
        XCTAssertEqual(kids.validation.value, .invalid("This question requires an answer."))
        kids.value.value = "abc"
        XCTAssertEqual(kids.validation.value, .invalid("Enter a whole number."))
        kids.value.value = "2"
        XCTAssertTrue(form.isValid.value)
        kids.inputError.value = .invalid("Not a number")
        XCTAssertEqual(kids.validation.value, .invalid("Not a number"), "a control's input error comes first")
        XCTAssertFalse(form.isValid.value)
    }

    @MainActor func testAMessageShowsOnceItsQuestionIsTouched_orAllProblemsAreRevealed() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | required | constraint | constraint_message |
            | | text | name | Name | yes | | |
            | | integer | age | Age | | . <= 120 | At most 120. |
            | | begin repeat | member | Member | | | |
            | | text | who | Who | yes | | |
            | | end repeat | | | | | |
            """)
        let name = try XCTUnwrap(form.state(named: "name"))
        let age = try XCTUnwrap(form.state(named: "age"))
        XCTAssertEqual(name.validation.value, .invalid("This question requires an answer."))
        XCTAssertEqual(name.shownValidation.value, .valid, "an untouched question is not scolded")
        XCTAssertFalse(name.isTouched.value)

        age.value.value = "130"
        XCTAssertTrue(age.isTouched.value)
        XCTAssertEqual(age.shownValidation.value, .invalid("At most 120."))
        age.value.value = "30"
        XCTAssertEqual(age.shownValidation.value, .valid)
        XCTAssertEqual(name.shownValidation.value, .valid, "touching one question reveals no other")

        let error = FieldValidation.invalid("Enter a whole number.")
        name.inputError.value = error
        XCTAssertEqual(name.shownValidation.value, error, "input a control refused shows at once, touched or not")
        name.inputError.value = .valid

        let who = try XCTUnwrap(form.state(named: "member")?.repeatState?.instances.value.first?.state(named: "who"))
        form.revealProblems()
        XCTAssertEqual(name.shownValidation.value, .invalid("This question requires an answer."))
        XCTAssertEqual(who.shownValidation.value, .invalid("This question requires an answer."), "and inside repeats")
    }

    @MainActor func testRestoredAnswers_andANewResponse_leaveEveryQuestionUntouched() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | constraint | constraint_message |
            | | integer | age | Age | . <= 120 | At most 120. |
            | | text | name | Name | | |
            """)
        form.restore([("age", "130"), ("name", "Ada")])
        let age = try XCTUnwrap(form.state(named: "age"))
        XCTAssertEqual(age.validation.value, .invalid("At most 120."))
        XCTAssertFalse(age.isTouched.value, "a restored answer was not answered now")
        XCTAssertEqual(age.shownValidation.value, .valid)
        age.value.value = "131"
        XCTAssertEqual(age.shownValidation.value, .invalid("At most 120."))

        form.revealProblems()
        form.reset()
        let fresh = try XCTUnwrap(form.state(named: "age"))
        XCTAssertFalse(fresh.isTouched.value, "a new response starts untouched")
    }

    @MainActor func testAPageRevealsOnlyItsOwnProblems() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | required |
            | | text | first | First | yes |
            | | text | second | Second | yes |
            """)
        let first = try XCTUnwrap(form.state(named: "first"))
        let second = try XCTUnwrap(form.state(named: "second"))
        form.revealProblems(among: [first])
        XCTAssertEqual(first.shownValidation.value, .invalid("This question requires an answer."))
        XCTAssertEqual(second.shownValidation.value, .valid)
    }

    @MainActor func testANonRelevantQuestionIsNeitherRequiredNorChecked() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | required | relevant | constraint |
            | | acknowledge | more | More? | | | |
            | | integer | n | N | yes | ${more} = 'OK' | . > 5 |
            """)
        XCTAssertTrue(form.isValid.value)
        form.state(named: "more")?.value.value = "OK"
        XCTAssertFalse(form.isValid.value)
        form.state(named: "n")?.value.value = "3"
        XCTAssertFalse(form.isValid.value)
        form.state(named: "more")?.value.value = ""
        XCTAssertTrue(form.isValid.value)
    }

    // MARK: - Repeats

    @MainActor func testRepeatsAddRemoveAndAggregate() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | calculation | constraint |
            | | begin repeat | member | Member | | |
            | | integer | age | Age | | |
            | | calculate | pos | | position(..) | |
            | | calculate | older | | ${age} + 1 | |
            | | end repeat | | | | |
            | | calculate | total | | sum(${age}) | |
            | | calculate | count | | count(${member}) | |
            | | calculate | second | | indexed-repeat(${age}, ${member}, 2) | |
            """)
        let members = try XCTUnwrap(form.state(named: "member")?.repeatState)
        XCTAssertEqual(members.instances.value.count, 1)
        members.instances.value[0].state(named: "age")?.value.value = "40"
        let second = try XCTUnwrap(members.add())
        second.state(named: "age")?.value.value = "2"
        XCTAssertEqual(second.state(named: "pos")?.value.value, "2")
        XCTAssertEqual(second.state(named: "older")?.value.value, "3", "inside a repeat, ${age} is this instance's age")
        XCTAssertEqual(form.state(named: "total")?.value.value, "42")
        XCTAssertEqual(form.state(named: "count")?.value.value, "2")
        XCTAssertEqual(form.state(named: "second")?.value.value, "2")
        members.remove(at: 0)
        XCTAssertEqual(form.state(named: "total")?.value.value, "2")
        XCTAssertEqual(members.instances.value[0].state(named: "pos")?.value.value, "1", "positions close up")
        XCTAssertEqual(form.answers().map(\.path), ["member[1]/age", "member[1]/pos", "member[1]/older", "total", "count", "second"])
    }

    /// A predicate on a repeat keeps the instances it holds in, read in each, as JavaRosa does.
    @MainActor func testPredicatesOnARepeatPickItsInstances() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | calculation |
            | | begin group | household | Household | |
            | | begin repeat | resident | Resident | |
            | | text | name | Name | |
            | | integer | age | Age | |
            | | end repeat | | | |
            | | end group | | | |
            | | calculate | second_age | | /data/household/resident[position() = 2]/age |
            | | calculate | second_name | | /data/household/resident[2]/name |
            | | calculate | adults | | count(/data/household/resident[age >= 18]) |
            | | calculate | adult_names | | join(', ', ${resident}[age >= 18]/name) |
            | | calculate | none | | count(/data/household/resident[age > 200]) |
            """)
        let residents = try XCTUnwrap(form.state(named: "resident")?.repeatState)
        for (index, (name, age)) in [("Ada", "36"), ("Tom", "12"), ("Grace", "45")].enumerated() {
            let instance = try XCTUnwrap(index == 0 ? residents.instances.value[0] : residents.add())
            instance.state(named: "name")?.value.value = name
            instance.state(named: "age")?.value.value = age
        }
        XCTAssertEqual(form.state(named: "second_age")?.value.value, "12")
        XCTAssertEqual(form.state(named: "second_name")?.value.value, "Tom")
        XCTAssertEqual(form.state(named: "adults")?.value.value, "2", "not every instance")
        XCTAssertEqual(form.state(named: "adult_names")?.value.value, "Ada, Grace")
        XCTAssertEqual(form.state(named: "none")?.value.value, "0")
        residents.instances.value[1].state(named: "age")?.value.value = "20"
        XCTAssertEqual(form.state(named: "second_age")?.value.value, "20")
        XCTAssertEqual(form.state(named: "adults")?.value.value, "3")
        residents.remove(at: 0)
        XCTAssertEqual(form.state(named: "second_name")?.value.value, "Grace")
        XCTAssertEqual(form.state(named: "adult_names")?.value.value, "Tom, Grace")
    }

    /// The XForm's root carries the form's id and version, which expressions can read.
    @MainActor func testTheRootsAttributesAreTheFormsIdAndVersion() async throws {
        let form = try model("""
            | settings |
            | | form_id | version |
            | | household_survey | 2026112801 |
            | survey |
            | | type | name | label | calculation |
            | | calculate | id | | /data/@id |
            | | calculate | version | | concat(/data/@version, '/', /data/@orx:version) |
            | | calculate | other | | string(/data/@other) |
            """)
        XCTAssertEqual(form.state(named: "id")?.value.value, "household_survey")
        XCTAssertEqual(form.state(named: "version")?.value.value, "2026112801/2026112801")
        XCTAssertEqual(form.state(named: "other")?.value.value, "", "an attribute the root has not")
    }

    /// JavaRosa follows a calculation that reads a repeat by its path as it follows `${}`.
    @MainActor func testCalculationsReadingARepeatByPathFollowItsInstances() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | calculation |
            | | begin group | household | Household | |
            | | begin repeat | resident | Resident | |
            | | text | name | Name | |
            | | integer | age | Age | |
            | | calculate | older | | ../age + 1 |
            | | end repeat | | | |
            | | end group | | | |
            | | calculate | residents | | count(/data/household/resident) |
            | | calculate | years | | sum(/data/household/resident/age) |
            | | calculate | names | | join(', ', /data/household/resident/name) |
            """)
        let residents = try XCTUnwrap(form.state(named: "resident")?.repeatState)
        XCTAssertEqual(form.state(named: "residents")?.value.value, "1")
        residents.instances.value[0].state(named: "name")?.value.value = "Ada"
        residents.instances.value[0].state(named: "age")?.value.value = "36"
        XCTAssertEqual(residents.instances.value[0].state(named: "older")?.value.value, "37", "../age follows its answer")
        let second = try XCTUnwrap(residents.add())
        second.state(named: "name")?.value.value = "Grace"
        second.state(named: "age")?.value.value = "45"
        XCTAssertEqual(form.state(named: "residents")?.value.value, "2", "an instance added is counted")
        XCTAssertEqual(form.state(named: "years")?.value.value, "81")
        XCTAssertEqual(form.state(named: "names")?.value.value, "Ada, Grace")
        residents.remove(at: 0)
        XCTAssertEqual(form.state(named: "residents")?.value.value, "1")
        XCTAssertEqual(form.state(named: "names")?.value.value, "Grace")
    }

    @MainActor func testNestedRepeatsAggregateAndRemovedInstancesAreLetGo() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | calculation |
            | | begin repeat | household | Household | |
            | | begin repeat | person | Person | |
            | | integer | age | Age | |
            | | end repeat | | | |
            | | end repeat | | | |
            | | calculate | total | | sum(${age}) |
            """)
        let households = try XCTUnwrap(form.state(named: "household")?.repeatState)
        let people = try XCTUnwrap(households.instances.value[0].state(named: "person")?.repeatState)
        people.instances.value[0].state(named: "age")?.value.value = "30"
        weak var removedAge: QuestionState?
        do {
            let second = try XCTUnwrap(people.add())
            second.state(named: "age")?.value.value = "12"
            removedAge = second.state(named: "age")
        }
        XCTAssertEqual(form.state(named: "total")?.value.value, "42", "a change two repeats down reaches the total")
        people.remove(at: 1)
        XCTAssertEqual(form.state(named: "total")?.value.value, "30")
        XCTAssertNil(removedAge, "a removed instance's answers are freed")
    }

    @MainActor func testAViewModelLetGoIsFreedWithItsRepeatsAndCalculations() async throws {
        weak var released: FormViewModel?
        weak var releasedAge: QuestionState?
        do {
            let form = try model("""
                | survey |
                | | type | name | label | repeat_count | relevant | calculation | constraint |
                | | integer | n | How many | | | | . < 50 |
                | | begin repeat | member | Member | ${n} | | | |
                | | integer | age | Age | | | | . >= 0 |
                | | calculate | adult | | | | if(${age} >= 18, 1, 0) | |
                | | end repeat | | | | | | |
                | | select_one yn | ok | OK | | ${n} > 0 | | |
                | choices |
                | | list_name | name | label |
                | | yn | yes | Yes |
                """)
            form.restore([("n", "2"), ("member[2]/age", "31")])
            XCTAssertEqual(form.answers().first { $0.path == "member[2]/adult" }?.value, "1")
            released = form
            let members = try XCTUnwrap(form.state(named: "member")?.repeatState)
            releasedAge = members.instances.value[1].state(named: "age")
        }
        XCTAssertNil(releasedAge, "a closed form's answers are freed")
        XCTAssertNil(released, "a closed form's view model is freed")
    }

    @MainActor func testRepeatCountDrivesTheInstances() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | repeat_count |
            | | integer | n | How many? | |
            | | begin repeat | child | Child | ${n} |
            | | text | name | Name | |
            | | end repeat | | | |
            """)
        let children = try XCTUnwrap(form.state(named: "child")?.repeatState)
        XCTAssertEqual(children.instances.value.count, 0)
        form.state(named: "n")?.value.value = "3"
        XCTAssertEqual(children.instances.value.count, 3)
        XCTAssertNil(children.add(), "the count is the form's to decide")
        form.state(named: "n")?.value.value = "1"
        XCTAssertEqual(children.instances.value.count, 1)
    }

    @MainActor func testCalculationsThatDoubleATextStopGrowingAtTheCap() async throws {
        var rows = "| | calculate | c0 | | concat('abcdefgh', '') |\n"
        for step in 1...22 { rows += "| | calculate | c\(step) | | concat(${c\(step - 1)}, ${c\(step - 1)}) |\n" }
        let form = try model("""
            | survey |
            | | type | name | label | calculation |
            \(rows)
            """)
        // 8 bytes doubled 17 times is the cap exactly; once more is past it.
        XCTAssertEqual(form.state(named: "c17")?.value.value.utf8.count, FormLimits.builtStringBytes)
        XCTAssertEqual(form.state(named: "c18")?.value.value, "")
        XCTAssertEqual(form.state(named: "c22")?.value.value, "")
    }

    // MARK: - Choices, languages, metadata

    /// Cities filtered by the country chosen, or all of them for 'all'.
    private static let cities = """
        | survey |
        | | type | name | label | choice_filter |
        | | select_one country | country | Country | |
        | | select_one city | city | City | country = ${country} or ${country} = 'all' |
        | choices |
        | | list_name | name | label | country |
        | | country | de | Germany | |
        | | country | fr | France | |
        | | city | berlin | Berlin | de |
        | | city | paris | Paris | fr |
        | | city | lyon | Lyon | fr |
        """

    @MainActor func testChoiceFiltersNarrowTheChoicesLive() async throws {
        let form = try model(Self.cities)
        let city = try XCTUnwrap(form.state(named: "city"))
        XCTAssertEqual(city.choices?.value.map(\.name), [])
        form.state(named: "country")?.value.value = "fr"
        XCTAssertEqual(city.choices?.value.map(\.name), ["paris", "lyon"])
        city.value.value = "lyon"
        form.state(named: "country")?.value.value = "de"
        XCTAssertEqual(city.value.value, "", "a choice no longer offered is no longer the answer")
        city.value.value = "berlin"
        XCTAssertEqual(city.value.value, "berlin")
    }

    @MainActor func testAnOfferedChoiceIsFoundByName_amongTheChoicesOfferedNow() async throws {
        let form = try model(Self.cities)
        let city = try XCTUnwrap(form.state(named: "city"))
        let country = try XCTUnwrap(form.state(named: "country"))
        XCTAssertNil(city.offeredPosition(of: "lyon"))
        country.value.value = "fr"
        XCTAssertEqual(city.offeredPosition(of: "lyon"), 1)
        XCTAssertNil(city.offeredPosition(of: "berlin"))
        // Each change of the offered choices is looked up anew, not from the
        // positions found before it.
        country.value.value = "all"
        XCTAssertEqual(city.offeredPosition(of: "lyon"), 2)
        XCTAssertEqual(city.offeredChoice(named: "berlin")?.label.text(in: nil), "Berlin")
        country.value.value = "de"
        XCTAssertNil(city.offeredChoice(named: "lyon"))
        XCTAssertNil(country.offeredPosition(of: "nowhere"))
    }

    @MainActor func testAChoiceFilteredOutLeavesASelectMultiple() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | choice_filter |
            | | integer | size | Size | |
            | | select_multiple item | items | Items | weight <= ${size} |
            | choices |
            | | list_name | name | label | weight |
            | | item | pen | Pen | 1 |
            | | item | book | Book | 2 |
            | | item | desk | Desk | 9 |
            """)
        let items = try XCTUnwrap(form.state(named: "items"))
        form.state(named: "size")?.value.value = "10"
        items.value.value = "pen desk book"
        form.state(named: "size")?.value.value = "5"
        XCTAssertEqual(items.value.value, "pen book")
    }

    @MainActor func testLanguagesSwitchLabelsAndMessages() async throws {
        let form = try model("""
            | settings |
            | | default_language |
            | | English (en) |
            | survey |
            | | type | name | label::English (en) | label::Deutsch (de) | required | required_message::English (en) | required_message::Deutsch (de) |
            | | text | name | Name | Name | yes | Required | Pflichtfeld |
            | | note | hi | Hello ${name} | Hallo ${name} | | | |
            """)
        XCTAssertEqual(form.language.value, "English (en)")
        let hi = try XCTUnwrap(form.state(named: "hi"))
        form.state(named: "name")?.value.value = "Zoë"
        XCTAssertEqual(hi.label.value, "Hello Zoë")
        form.state(named: "name")?.value.value = ""
        form.language.value = "Deutsch (de)"
        XCTAssertEqual(hi.label.value, "Hallo ")
        XCTAssertEqual(form.state(named: "name")?.validation.value, .invalid("Pflichtfeld"))
    }

    @MainActor func testMetadataAndDefaults() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | default |
            | | start | started | | |
            | | today | day | | |
            | | deviceid | device | | |
            | | username | user | | |
            | | text | city | City | Berlin |
            | | date | due | Due | today() |
            | | end | ended | | |
            """)
        let answers = Dictionary(uniqueKeysWithValues: form.answers().map { ($0.path, $0.value) })
        XCTAssertTrue(answers["started"]?.hasPrefix("2023-11-14T22:13:20") == true, "\(answers)")
        XCTAssertEqual(answers["day"], "2023-11-14")
        XCTAssertEqual(answers["device"], "device-1")
        XCTAssertEqual(answers["user"], "ada")
        XCTAssertEqual(answers["city"], "Berlin")
        XCTAssertEqual(answers["due"], "2023-11-14")
        XCTAssertTrue(answers["ended"]?.hasPrefix("2023-11-14T22:13:20") == true)
        XCTAssertTrue(form.instanceID.hasPrefix("uuid:"))
    }

    @MainActor func testEveryMetadataRow_runs_withThePersonsDetailsOrBlank() async throws {
        let environment = FormEnvironment(
            now: { Self.fixedNow }, username: "ada", email: "ada@example.org", phoneNumber: "+44 20 7946 0000"
        )
        let form = try FormViewModel(definition: FormFixtures.definition("""
            | survey |
            | | type | name | label |
            | | deviceid | device | |
            | | uri:deviceid | device_uri | |
            | | username | user | |
            | | uri:username | user_uri | |
            | | email | mail | |
            | | uri:email | mail_uri | |
            | | phonenumber | phone | |
            | | uri:phonenumber | phone_uri | |
            | | simserial | sim | |
            | | subscriberid | subscriber | |
            | | start-geopoint | where | |
            | | calculate | who | | concat(${user}, ' on ', ${device}) |
            """.replacingOccurrences(of: "| label |\n", with: "| label | calculation |\n")), environment: environment)
        var answers: [String: String] { Dictionary(uniqueKeysWithValues: form.answers().map { ($0.path, $0.value) }) }
        XCTAssertEqual(answers["user"], "ada")
        XCTAssertEqual(answers["user_uri"], "username:ada")
        XCTAssertEqual(answers["mail"], "ada@example.org")
        XCTAssertEqual(answers["mail_uri"], "mailto:ada@example.org")
        XCTAssertEqual(answers["phone"], "+44 20 7946 0000")
        XCTAssertEqual(answers["phone_uri"], "tel:+44 20 7946 0000")
        for blank in ["sim", "subscriber", "where", "device", "device_uri"] { XCTAssertEqual(answers[blank], "", blank) }

        // The device id arrives once the app's database has opened.
        form.provide(deviceID: "survey-form:1234")
        XCTAssertEqual(answers["device"], "survey-form:1234")
        XCTAssertEqual(answers["device_uri"], "survey-form:1234")
        XCTAssertEqual(answers["who"], "ada on survey-form:1234", "what reads it follows")
        form.reset()
        XCTAssertEqual(answers["device"], "survey-form:1234", "and the next response starts with it")
        XCTAssertEqual(FormEnvironment(username: "").metadataValue(QuestionType("uri:username")), "", "no scheme on a blank")
    }

    @MainActor func testAnswersThatAreNotOfTheQuestionsTypeAreRefused() async throws {
        let form = try model("""
            | survey |
            | | type | name | label |
            | | date | due | Due |
            | | decimal | price | Price |
            """)
        let due = try XCTUnwrap(form.state(named: "due"))
        due.value.value = "2023-02-30"
        XCTAssertEqual(due.validation.value, .invalid("Enter a date as YYYY-MM-DD."))
        due.value.value = "2024-02-29"
        XCTAssertEqual(due.validation.value, .valid)
        form.state(named: "price")?.value.value = "12,5"
        XCTAssertEqual(form.state(named: "price")?.validation.value, .invalid("Enter a number."))
    }

    @MainActor func testRestoredMetadata_keepsWhenTheResponseBegan_butEndIsWhenItIsSubmitted() async throws {
        let form = try model("""
            | survey |
            | | type | name | label |
            | | start | began | |
            | | end | ended | |
            | | today | day | |
            | | username | who | |
            | | text | a | A |
            """)
        let began = "2026-01-02T03:04:05.000+01:00"
        form.restore([("began", began), ("ended", "2026-01-02T03:09:00.000+01:00"), ("day", "2026-01-02"),
                      ("who", "enumerator 7"), ("a", "x")])
        let answers = Dictionary(uniqueKeysWithValues: form.answers().map { ($0.path, $0.value) })
        XCTAssertEqual(answers["began"], began, "a draft or an edit began when its response did")
        XCTAssertEqual(answers["day"], "2026-01-02")
        XCTAssertEqual(answers["who"], "enumerator 7", "the person who began it")
        XCTAssertEqual(answers["a"], "x")
        XCTAssertNotEqual(answers["ended"], "2026-01-02T03:09:00.000+01:00", "end is when it is submitted")
        XCTAssertTrue(answers["ended"]?.hasPrefix("20") ?? false, answers["ended"] ?? "no end")
    }

    @MainActor func testResetStartsANewResponse() async throws {
        let form = try model("""
            | survey |
            | | type | name | label |
            | | text | a | A |
            """)
        let firstID = form.instanceID
        form.restore([("a", "x")])
        let old = try XCTUnwrap(form.state(named: "a"))
        XCTAssertEqual(old.value.value, "x")
        form.reset()
        XCTAssertEqual(form.state(named: "a")?.value.value, "")
        XCTAssertNotEqual(form.instanceID, firstID)
        old.value.value = "typed into a widget still bound to the old response"
        XCTAssertEqual(form.state(named: "a")?.value.value, "", "the old response is gone, and touching it is harmless")
    }

    @MainActor func testRestoreRebuildsRepeatsAndPassesOverWhatTheFormLacks() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | calculation | repeat_count |
            | | begin group | hh | Household | | |
            | | text | head | Head | | |
            | | begin repeat | member | Member | | |
            | | integer | age | Age | | |
            | | end repeat | | | | |
            | | end group | | | | |
            | | integer | n | Visits | | |
            | | begin repeat | visit | Visit | | ${n} |
            | | date | day | Day | | |
            | | end repeat | | | | |
            | | calculate | total | | sum(${age}) | |
            """)
        var changes = 0
        let token = form.answerChanges.observe { _ in changes += 1 }
        form.restore([
            ("hh/head", "Ada"), ("hh/member[1]/age", "40"), ("hh/member[2]/age", "2"), ("hh/member[3]/age", "7"),
            ("n", "2"), ("visit[2]/day", "2024-05-01"), ("visit[3]/day", "2024-06-01"),
            ("dropped", "x"), ("hh/member[0]/age", "1"), ("hh/member[x]/age", "1"), ("total", "999"),
        ])
        XCTAssertGreaterThan(changes, 0, "a restore is a change")
        XCTAssertEqual(form.state(named: "total")?.value.value, "49", "a calculation is the form's, not the draft's")
        let visits = try XCTUnwrap(form.state(named: "visit")?.repeatState)
        XCTAssertEqual(visits.instances.value.count, 2, "repeat_count, not the draft, fixes the number")
        XCTAssertEqual(form.answers().map { "\($0.path)=\($0.value)" }, [
            "hh/head=Ada", "hh/member[1]/age=40", "hh/member[2]/age=2", "hh/member[3]/age=7",
            "n=2", "visit[1]/day=", "visit[2]/day=2024-05-01", "total=49",
        ])
        let members = try XCTUnwrap(form.state(named: "member")?.repeatState)
        func assertChanges(_ change: () -> Void, _ message: String, line: UInt = #line) {
            let before = changes
            change()
            XCTAssertGreaterThan(changes, before, message, line: line)
        }
        assertChanges({ members.instances.value[1].state(named: "age")?.value.value = "3" }, "an answer inside a repeat")
        assertChanges({ members.remove(at: 0) }, "an instance removed")
        assertChanges({ form.reset() }, "a new response")
        assertChanges({ form.state(named: "head")?.value.value = "Grace" }, "the new response's answers are watched")
        let before = changes
        form.language.value = "fr"
        XCTAssertEqual(changes, before, "only answers count")
        token.cancel()
    }

    @MainActor func testPagesAreTopLevelGroupsAndTheRowsBetweenThem() async throws {
        let form = try model("""
            | settings |
            | | style |
            | | pages |
            | survey |
            | | type | name | label | relevant | calculation | appearance |
            | | text | intro | Intro | | | |
            | | integer | n | N | | | |
            | | begin group | a | A | ${n} > 1 | | field-list |
            | | text | a1 | A1 | | | |
            | | begin group | inner | Inner | | | |
            | | text | a2 | A2 | | | |
            | | end group | | | | | |
            | | end group | | | | | |
            | | calculate | c | | | 1 + 1 | |
            | | begin repeat | r | R | | | |
            | | text | r1 | R1 | | | |
            | | end repeat | | | | | |
            | | calculate | d | | | 2 | |
            | | begin group | only_calc | Calc | | | |
            | | calculate | e | | | 3 | |
            | | end group | | | | | |
            | | note | end_note | Done | | | |
            """)
        XCTAssertTrue(form.isPaged)
        let pages = form.pages()
        XCTAssertEqual(pages.map { $0.map(\.question.name) }, [
            ["intro", "n"], ["a", "a1", "inner", "a2"], ["c"], ["r"], ["d"], ["only_calc", "e"], ["end_note"],
        ])
        XCTAssertEqual(pages.map(form.isShown), [true, false, false, true, false, false, true])
        form.state(named: "n")?.value.value = "2"
        XCTAssertTrue(form.isShown(page: pages[1]), "a group's page follows its relevance")

        let unpaged = try model("""
            | survey |
            | | type | name | label | appearance |
            | | begin group | g | G | |
            | | text | a | A | |
            | | end group | | | |
            """)
        XCTAssertFalse(unpaged.isPaged)
        let fieldList = try model("""
            | survey |
            | | type | name | label | appearance |
            | | begin group | g | G | field-list |
            | | text | a | A | |
            | | end group | | | |
            """)
        XCTAssertTrue(fieldList.isPaged, "a field-list group pages the form")
    }

    @MainActor func testResumeAndStartNewInstance_changeOnlyTheInstanceID() async throws {
        let form = try model("""
            | survey |
            | | type | name | label |
            | | text | a | A |
            """)
        form.restore([("a", "kept")])
        form.resume(instanceID: "uuid:from-a-draft")
        XCTAssertEqual(form.instanceID, "uuid:from-a-draft")
        form.startNewInstance()
        XCTAssertNotEqual(form.instanceID, "uuid:from-a-draft")
        XCTAssertTrue(form.instanceID.hasPrefix("uuid:"))
        XCTAssertEqual(form.state(named: "a")?.value.value, "kept")
    }

    @MainActor func testTheSummaryListsRelevantAnswersByTheirLabels() async throws {
        let form = try model("""
            | survey |
            | | type | name | label | relevant |
            | | text | name | Name | |
            | | select_multiple fruit | fruit | Fruit | |
            | | integer | age | Age | ${name} != '' |
            | | note | n | Thanks | |
            | choices |
            | | list_name | name | label |
            | | fruit | apple | Apple |
            | | fruit | pear | Pear |
            """)
        XCTAssertEqual(form.summary.value, "Name: --\nFruit: --")
        form.restore([("name", "Ada"), ("fruit", "pear apple"), ("age", "36")])
        XCTAssertEqual(form.summary.value, "Name: Ada\nFruit: Pear, Apple\nAge: 36")
        form.reset()
        XCTAssertEqual(form.summary.value, "Name: --\nFruit: --")
        form.restore([("name", "Grace")])
        XCTAssertEqual(form.summary.value, "Name: Grace\nFruit: --\nAge: --", "the new response's answers reach it")
    }

    @MainActor func testAnswersWithinLabelsAndTheSummary_readInTheReadersNotation_storedInXForms() async throws {
        let german = AnswerNotation(
            separators: NumberSeparators(locale: Locale(identifier: "de_DE")), dateLocale: Locale(identifier: "de_DE")
        )
        let form = try FormViewModel(definition: try FormFixtures.definition("""
            | survey |
            | | type | name | label | appearance | calculation |
            | | decimal | weight | Weight | | |
            | | integer | year | Year | | |
            | | integer | herd | Herd | thousands-sep | |
            | | date | born | Born | | |
            | | dateTime | seen | Seen | | |
            | | calculate | half | | | ${weight} div 2 |
            | | note | said | ${weight} kg, ${year}, ${herd} head, born ${born}, seen ${seen}, half ${half} | | |
            """), environment: FormEnvironment(notation: german))
        form.restore([("weight", "12.5"), ("year", "2024"), ("herd", "12000"), ("born", "2024-01-31"), ("seen", "2024-01-31T08:05:00.000+01:00")])
        XCTAssertEqual(
            form.state(named: "said")?.label.value,
            "12,5 kg, 2024, 12.000 head, born 31.01.2024, seen 31.01.2024 08:05, half 6.25",
            "a decimal mark, thousands only where asked, the locale's day; a calculation as the form made it"
        )
        XCTAssertEqual(
            form.summary.value,
            "Weight: 12,5\nYear: 2024\nHerd: 12.000\nBorn: 31.01.2024\nSeen: 31.01.2024 08:05"
        )
        XCTAssertEqual(form.answers().first?.value, "12.5", "stored in XForms notation")
        XCTAssertEqual(form.answers().first { $0.path == "born" }?.value, "2024-01-31")

        let plain = try FormViewModel(definition: form.definition)
        plain.restore([("weight", "12.5"), ("born", "2024-01-31")])
        XCTAssertEqual(plain.state(named: "said")?.label.value, "12.5 kg, ,  head, born 2024-01-31, seen , half 6.25", "as stored by default")
    }

    @MainActor func testAReadoutSaysHowTheAnswerReadsInEachLanguageAndInTheSummary() async throws {
        let form = try model("""
            | survey |
            | | type | name | label::English (en) | label::Deutsch (de) | readout::English (en) | readout::Deutsch (de) | calculation |
            | | decimal | years | Years | Jahre | ${shown} yrs | ${shown} J. | |
            | | acknowledge | ok | Agreed | Zugestimmt | | | |
            | | calculate | shown | | | | | concat(floor(round(${years} * 10) div 10), '.', round(${years} * 10) mod 10) |
            """)
        form.language.value = "English (en)"
        let years = try XCTUnwrap(form.state(named: "years"))
        let readout = try XCTUnwrap(years.readout)
        XCTAssertNil(form.state(named: "ok")?.readout, "a row without a readout has none")
        XCTAssertEqual(readout.value, "", "nothing to read while unanswered")
        XCTAssertEqual(form.summary.value, "Years: --\nAgreed: NO")
        years.value.value = "12.5"
        XCTAssertEqual(readout.value, "12.5 yrs")
        years.value.value = "5"
        XCTAssertEqual(readout.value, "5.0 yrs")
        form.state(named: "ok")?.value.value = "OK"
        XCTAssertEqual(form.summary.value, "Years: 5.0 yrs\nAgreed: YES", "the summary follows the readout")
        form.language.value = "Deutsch (de)"
        XCTAssertEqual(readout.value, "5.0 J.")
        XCTAssertTrue(form.summary.value.hasPrefix("Jahre: 5.0 J.\n"), form.summary.value)
    }

    // MARK: - Forms that cannot run

    @MainActor func testFormsThatCannotRunAreRefusedWithTheirRows() async throws {
        let definition = try FormFixtures.definition("""
            | survey |
            | | type | name | label | calculation | relevant |
            | | calculate | a | | ${b} + 1 | |
            | | calculate | b | | ${a} + 1 | |
            | | csv-external | households | | | |
            | | text | t | T | | ${a} > ( |
            """)
        XCTAssertThrowsError(try FormViewModel(definition: definition)) { error in
            let described = (error as? FormDefinitionError)?.problems.map(\.description) ?? []
            XCTAssertTrue(described.contains { $0.hasPrefix("survey row 2: ") && $0.contains("'a', 'b'") }, "\(described)")
            XCTAssertTrue(described.contains { $0.hasPrefix("survey row 4: ") && $0.contains("'households.csv' is needed") }, "\(described)")
            XCTAssertTrue(described.contains { $0.hasPrefix("survey row 5: The relevant of 't' cannot be read") }, "\(described)")
        }
    }

    // MARK: - Files

    @MainActor func testAttachmentQuestions_open_andSayWhatTheyTake() throws {
        let definition = try FormFixtures.definition("""
            | survey |
            | | type | name | label | parameters | body::accept | appearance |
            | | image | photo | Photo | max-pixels=1_024 | | |
            | | image | sign | Sign | | | signature |
            | | audio | story | Story | quality=low | | |
            | | file | report | Report | | .pdf, application/msword | |
            | | background-audio | interview | | | | |
            """)
        let form = try FormViewModel(definition: definition)
        func question(_ name: String) throws -> Question { try XCTUnwrap(form.state(named: name)).question }
        XCTAssertEqual(try question("photo").maxPixels, 1024, "read as Python's int() reads it")
        XCTAssertEqual(try question("photo").acceptedFiles, ["image/*"])
        XCTAssertTrue(try question("photo").accepts(fileName: "a.png", mediaType: "image/png"))
        XCTAssertFalse(try question("photo").accepts(fileName: "a.png", mediaType: "text/plain"), "the bytes decide, not the name")
        XCTAssertTrue(try question("sign").drawsImage)
        XCTAssertFalse(try question("photo").drawsImage)
        XCTAssertEqual(try question("report").acceptedFiles, [".pdf", "application/msword"])
        XCTAssertTrue(try question("report").accepts(fileName: "Report.PDF", mediaType: "application/octet-stream"))
        XCTAssertTrue(try question("report").accepts(fileName: "r.doc", mediaType: "application/msword"))
        XCTAssertFalse(try question("report").accepts(fileName: "r.txt", mediaType: "text/plain"))
        XCTAssertEqual(try question("interview").acceptedFiles, ["audio/*"])
        XCTAssertTrue(try question("story").type.isAnswerable)
        let photo = try XCTUnwrap(form.state(named: "photo"))
        photo.value.value = "1700000000000.jpg"
        XCTAssertTrue(form.answers().contains { $0.path == "photo" && $0.value == "1700000000000.jpg" })
    }

    // MARK: - or_other

    @MainActor func testOrOther_offersOther_andItsTextWhileChosen_asPyxformAddsThem() async throws {
        let definition = try FormFixtures.definition("""
            | survey |
            | | type | name | label::English (en) | label::Deutsch (de) |
            | | select_one fruit or_other | fav | Favourite | Liebste |
            | | note | said | You said ${fav_other} | Du sagtest ${fav_other} |

            | choices |
            | | list_name | name | label::English (en) | label::Deutsch (de) |
            | | fruit | apple | Apple | Apfel |
            """)
        XCTAssertFalse(definition.jsonDescription.text.contains(#""name":"fav_other""#), "described as the form holds it")
        XCTAssertFalse(definition.jsonDescription.text.contains("\"other\""))
        let form = try FormViewModel(definition: definition)
        form.language.value = "English (en)"
        let fav = try XCTUnwrap(form.state(named: "fav"))
        XCTAssertEqual(fav.choices?.value.map(\.name), ["apple", "other"])
        XCTAssertEqual(fav.choices?.value.last?.label.text(in: "Deutsch (de)"), "Other", "pyxform's label, in every language")
        let other = try XCTUnwrap(form.state(named: "fav_other"))
        XCTAssertEqual(other.label.value, "Specify other.")
        XCTAssertFalse(other.isRelevant.value)
        fav.value.value = "other"
        XCTAssertTrue(other.isRelevant.value)
        other.value.value = "Quince"
        XCTAssertEqual(form.state(named: "said")?.label.value, "You said Quince")
        XCTAssertEqual(form.answers().map(\.path), ["fav", "fav_other"])
        fav.value.value = "apple"
        XCTAssertEqual(form.answers().map(\.path), ["fav"], "not relevant, not stored")
    }

    // MARK: - begin loop over

    @MainActor func testALoop_runsAGroupPerChoice_withTheChoiceInItsRowsTexts_asPyxformExpandsIt() async throws {
        let definition = try FormFixtures.definition("""
            | survey |
            | | type | name | label::English (en) | label::Deutsch (de) | hint | relevant | constraint |
            | | select_multiple crop | grown | Grown | Angebaut | | | |
            | | begin loop over crop | per_crop | Each | Jede | | | |
            | | integer | area | Area of %(label)s | Fläche von %(label)s | Code %(code)s, 100%% | selected(${grown}, '%(name)s') | . < 100 |
            | | begin group | detail | About %(label)s | Zu %(label)s | | | |
            | | text | remark | Kept: %(label)s | Kept: %(label)s | | | |
            | | end group | | | | | | |
            | | end loop | | | | | | |

            | choices |
            | | list_name | name | label::English (en) | label::Deutsch (de) | code |
            | | crop | maize | Maize | Mais | M1 |
            | | crop | none | None | Keine | N0 |
            | | crop | beans | Beans | Bohnen | B2 |
            """)
        let described = definition.jsonDescription.text
        XCTAssertTrue(described.contains(#""path":"per_crop","type":"loop""#), "the row is described as written")
        XCTAssertTrue(described.contains(#""path":"per_crop/area""#))
        XCTAssertFalse(described.contains("per_crop/maize"), "the groups per choice are run, not described")

        let form = try FormViewModel(definition: definition)
        form.language.value = "Deutsch (de)"
        let loop = try XCTUnwrap(form.states.first { $0.question.name == "per_crop" })
        let groups = form.allStates.filter { $0.question.path.count == 2 && $0.question.type == .group }
        XCTAssertEqual(groups.map(\.question.pathString), ["per_crop/maize", "per_crop/beans"], "every choice but 'none'")
        XCTAssertEqual(groups.map(\.label.value), ["Mais", "Bohnen"], "labelled as the choice, in the form's language")
        XCTAssertEqual(loop.label.value, "Jede")

        func state(_ path: String) throws -> QuestionState {
            try XCTUnwrap(form.allStates.first { $0.question.pathString == path }, path)
        }
        let maizeArea = try state("per_crop/maize/area")
        let beansArea = try state("per_crop/beans/area")
        XCTAssertEqual(maizeArea.label.value, "Fläche von Mais", "%(label)s in each language's label")
        form.language.value = "English (en)"
        XCTAssertEqual(beansArea.label.value, "Area of Beans")
        XCTAssertEqual(beansArea.question.hint.text(in: nil), "Code B2, 100%", "the choice's own column, and %% a percent sign")
        XCTAssertEqual(try state("per_crop/beans/detail").label.value, "About Beans", "a group in the loop: its own label")
        XCTAssertEqual(try state("per_crop/beans/detail/remark").label.value, "Kept: %(label)s", "its rows' as written, as pyxform leaves them")

        XCTAssertFalse(maizeArea.isRelevant.value)
        try state("grown").value.value = "beans"
        XCTAssertFalse(maizeArea.isRelevant.value, "%(name)s in the relevance: each group asks of its own choice")
        XCTAssertTrue(beansArea.isRelevant.value)
        beansArea.value.value = "120"
        XCTAssertNotNil(beansArea.validation.value.message, "the constraint runs in every copy")
        beansArea.value.value = "12"
        XCTAssertEqual(
            form.answers().map(\.path),
            ["grown", "per_crop/maize/detail/remark", "per_crop/beans/area", "per_crop/beans/detail/remark"],
            "stored by their paths; maize's area not, being irrelevant"
        )
        XCTAssertEqual(form.answers().first { $0.path == "per_crop/beans/area" }?.value, "12")
    }

    @MainActor func testOrOtherInALoop_eachCopysOtherFollowsItsOwnSelect_asPyxformsRelativePath() async throws {
        let form = try FormViewModel(definition: try FormFixtures.definition("""
            | survey |
            | | type | name | label |
            | | begin loop over room | per_room | Rooms |
            | | select_one floor or_other | floor | Floor of the %(label)s |
            | | end loop | | |

            | choices |
            | | list_name | name | label |
            | | room | kitchen | kitchen |
            | | room | hall | hall |
            | | floor | tiles | Tiles |
            """))
        func state(_ path: String) throws -> QuestionState {
            try XCTUnwrap(form.allStates.first { $0.question.pathString == path }, path)
        }
        try state("per_room/kitchen/floor").value.value = "other"
        XCTAssertTrue(try state("per_room/kitchen/floor_other").isRelevant.value)
        XCTAssertFalse(try state("per_room/hall/floor_other").isRelevant.value, "the hall's 'other' asks of the hall's floor")
        try state("per_room/hall/floor").value.value = "other"
        try state("per_room/kitchen/floor").value.value = "tiles"
        XCTAssertFalse(try state("per_room/kitchen/floor_other").isRelevant.value)
        XCTAssertTrue(try state("per_room/hall/floor_other").isRelevant.value)
    }

    @MainActor func testALoop_refusesABadPercent_andAListItCannotFind_withTheirRows() {
        let problems = FormFixtures.problems("""
            | survey |
            | | type | name | label |
            | | begin loop over crop | a | A |
            | | integer | n | Over 50% of %(label)s? |
            | | end loop | | |
            | | begin loop over tree | b | B |
            | | integer | m | %(colour)s |
            | | end loop | | |
            | | begin loop | c | C |
            | | end loop | | |

            | choices |
            | | list_name | name | label |
            | | crop | maize | Maize |
            | | crop | beans | Beans |
            """).map { "\($0)" }
        XCTAssertEqual(problems.count, 3, "\(problems)")
        XCTAssertTrue(problems[0].contains("row 3") && problems[0].contains("%%"), "once, not once per choice: \(problems)")
        XCTAssertTrue(problems[1].contains("row 5") && problems[1].contains("'tree'"), "\(problems)")
        XCTAssertTrue(problems[2].contains("row 8") && problems[2].contains("begin loop over LIST"), "\(problems)")
    }

    func testLoops_makeNoMoreRowsThanTheLimit_soATinyFileCannotAskForMillions() throws {
        let choices = (0..<10_001).map { "| | big | c\($0) | C\($0) |" }.joined(separator: "\n")
        let problems = FormFixtures.problems("""
            | survey |
            | | type | name | label |
            | | begin loop over big | each | Each |
            | | integer | n | N %(label)s |
            | | end loop | | |

            | choices |
            | | list_name | name | label |
            \(choices)
            """).map { "\($0)" }
        XCTAssertEqual(problems, [
            "survey row 2: The loop would make 20002 rows, 2 for each of its 10001 choices; a form's loops may make 20000 at most.",
        ])
    }

    // MARK: - trigger

    @MainActor func testATrigger_recomputesTheCalculationOnlyWhenItsQuestionChanges() async throws {
        let form = try FormViewModel(definition: try FormFixtures.definition("""
            | survey |
            | | type | name | label | calculation | trigger | default |
            | | integer | weight | Weight | | | |
            | | integer | height | Height | | | |
            | | calculate | weighed | | ${height} + ${weight} | ${weight} | |
            | | text | noted | Noted | concat('w=', ${weight}) | ${weight} | none |
            """))
        let weight = try XCTUnwrap(form.state(named: "weight"))
        let height = try XCTUnwrap(form.state(named: "height"))
        let weighed = try XCTUnwrap(form.state(named: "weighed"))
        let noted = try XCTUnwrap(form.state(named: "noted"))
        XCTAssertEqual(weighed.value.value, "", "not computed before its trigger changes")
        XCTAssertEqual(noted.value.value, "none", "its default until then")
        height.value.value = "170"
        XCTAssertEqual(weighed.value.value, "", "what it reads is no trigger")
        weight.value.value = "60"
        XCTAssertEqual(weighed.value.value, "230")
        XCTAssertEqual(noted.value.value, "w=60")
        noted.value.value = "changed by hand"
        height.value.value = "180"
        XCTAssertEqual(weighed.value.value, "230", "kept until the trigger changes again")
        XCTAssertEqual(noted.value.value, "changed by hand")
        weight.value.value = "61"
        XCTAssertEqual(weighed.value.value, "241")
        XCTAssertEqual(noted.value.value, "w=61")
    }

    // MARK: - Choices from a repeat's answers

    @MainActor func testASelectOfARepeatsAnswers_offersEachInstancesAnswer_filteredInEach() async throws {
        let form = try FormViewModel(definition: try FormFixtures.definition("""
            | survey |
            | | type | name | label | choice_filter |
            | | begin repeat | friend | Friend | |
            | | text | fname | Friend's name | |
            | | integer | age | Age | |
            | | end repeat | | | |
            | | select_one ${fname} | best | Best friend | |
            | | select_one ${fname} | eldest | Eldest | ${age} > 30 and position() > 1 |
            """))
        let friends = try XCTUnwrap(form.state(named: "friend")?.repeatState)
        let best = try XCTUnwrap(form.state(named: "best"))
        let eldest = try XCTUnwrap(form.state(named: "eldest"))
        XCTAssertEqual(best.choices?.value.map(\.name), [], "no friend named yet")
        friends.instances.value[0].states[0].value.value = "Ada"
        friends.instances.value[0].states[1].value.value = "36"
        friends.add()
        friends.add()
        friends.instances.value[1].states[0].value.value = "Grace"
        friends.instances.value[1].states[1].value.value = "45"
        friends.instances.value[2].states[1].value.value = "50"
        XCTAssertEqual(best.choices?.value.map(\.name), ["Ada", "Grace"], "an instance with no name offers nothing")
        XCTAssertEqual(best.choices?.value.map { $0.label.text(in: nil) }, ["Ada", "Grace"])
        XCTAssertEqual(eldest.choices?.value.map(\.name), ["Grace"], "the filter is the instance's")
        best.value.value = "Grace"
        XCTAssertEqual(best.value.value, "Grace")
        friends.instances.value[1].states[0].value.value = "Grace Hopper"
        XCTAssertEqual(best.choices?.value.map(\.name), ["Ada", "Grace Hopper"], "follows the answers")
    }

    // MARK: - rank

    @MainActor func testARanksAnswer_ordersEveryChoiceOffered() async throws {
        let form = try FormViewModel(definition: try FormFixtures.definition("""
            | survey |
            | | type | name | label | choice_filter |
            | | integer | most | Most | |
            | | rank fruit | order | Order | ${most} = '' or number <= ${most} |

            | choices |
            | | list_name | name | label | number |
            | | fruit | apple | Apple | 1 |
            | | fruit | pear | Pear | 2 |
            | | fruit | plum | Plum | 3 |
            """))
        let order = try XCTUnwrap(form.state(named: "order"))
        let offered = try XCTUnwrap(order.choices?.value)
        XCTAssertEqual(RankOrder.names("", offered: offered), ["apple", "pear", "plum"])
        XCTAssertEqual(RankOrder.names("plum apple", offered: offered), ["plum", "apple", "pear"], "unranked ones after")
        XCTAssertEqual(RankOrder.moving(["apple", "pear", "plum"], at: 2, by: -2), "plum apple pear")
        XCTAssertEqual(RankOrder.moving(["apple", "pear", "plum"], at: 0, by: -1), "apple pear plum", "clamped")
        order.value.value = "plum pear apple"
        form.state(named: "most")?.value.value = "2"
        XCTAssertEqual(order.value.value, "pear apple", "a choice no longer offered leaves the order")
    }
}
