@testable import FormEngine
import Foundation
import XCTest

/// `${last-saved#name}`: the answer the response last saved to the form gave,
/// as Collect's last-saved instance reads it, most often to carry a default
/// over from one response to the next.
final class LastSavedTests: XCTestCase {
    private static let form = """
        | survey |
        | | type | name | label | default | calculation |
        | | text | enumerator | Enumerator | ${last-saved#enumerator} | |
        | | begin group | g | G | | |
        | | integer | visits | Visits | ${last-saved#visits} + 1 | |
        | | end group | | | | |
        | | text | village | Village | ${last-saved#village} | |
        | | calculate | before | | | concat('was ', ${last-saved#enumerator}) |
        """

    @MainActor func testWithoutASavedResponse_theDefaultsAreBlank_andThenTheSavedAnswersFillWhatIsStillBlank() async throws {
        let form = try FormViewModel(definition: FormFixtures.definition(Self.form))
        XCTAssertTrue(form.readsLastSaved)
        XCTAssertEqual(form.state(named: "enumerator")?.value.value, "")
        XCTAssertEqual(form.state(named: "before")?.value.value, "was ")
        // Typed before the last response was known: kept.
        form.state(named: "village")!.value.value = "Kibera"
        form.state(named: "village")!.isTouched.value = true

        form.provide(lastSaved: [("enumerator", "Ada"), ("g/visits", "2"), ("village", "Mathare")])
        XCTAssertEqual(form.state(named: "enumerator")?.value.value, "Ada")
        XCTAssertEqual(form.state(named: "visits")?.value.value, "3", "an expression over the saved answer")
        XCTAssertEqual(form.state(named: "village")?.value.value, "Kibera", "an answer given is not replaced")
        XCTAssertEqual(form.state(named: "before")?.value.value, "was Ada", "a calculation reading it follows")

        // The next response starts from it too.
        form.reset()
        XCTAssertEqual(form.state(named: "enumerator")?.value.value, "Ada")
        XCTAssertEqual(form.state(named: "village")?.value.value, "Mathare")
    }

    @MainActor func testADraftsBlanksAreAnswers_notFilledFromTheSavedResponse() async throws {
        let form = try FormViewModel(definition: FormFixtures.definition(Self.form))
        form.restore([("enumerator", ""), ("g/visits", "7")])
        form.provide(lastSaved: [("enumerator", "Ada"), ("g/visits", "2")], fillingBlanks: false)
        XCTAssertEqual(form.state(named: "enumerator")?.value.value, "")
        XCTAssertEqual(form.state(named: "visits")?.value.value, "7")
        XCTAssertEqual(form.state(named: "before")?.value.value, "was Ada")
    }

    func testAFormWithoutIt_doesNotReadIt() async throws {
        let form = try await FormViewModel(definition: FormFixtures.definition("| survey |\n| | type | name | label |\n| | text | a | A |"))
        let reads = await form.readsLastSaved
        XCTAssertFalse(reads)
    }

    /// pyxform writes it as a path in the `__last-saved` instance, which the
    /// XForm reader reads back as written.
    func testAnXFormsLastSavedInstance_readsBackAsTheReference() throws {
        let xml = """
            <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml">\
            <h:head><h:title>Visits</h:title><model>
            <instance><data id="visits"><enumerator/><g><n/></g><c/><meta><instanceID/></meta></data></instance>
            <instance id="__last-saved" src="jr://instance/last-saved"/>
            <bind nodeset="/data/enumerator" type="string"/>
            <setvalue ref="/data/enumerator" event="odk-instance-first-load" value=" instance('__last-saved')/data/enumerator "/>
            <bind nodeset="/data/g/n" type="int"/>
            <bind nodeset="/data/c" type="string" calculate="concat('was ',  instance('__last-saved')/data/g/n )"/>
            </model></h:head><h:body><input ref="/data/enumerator"><label>Enumerator</label></input>\
            <group ref="/data/g"><label>G</label><input ref="/data/g/n"><label>N</label></input></group></h:body></h:html>
            """
        let definition = try FormDefinition(data: Data(xml.utf8), fileName: "visits.xml")
        let questions = Dictionary(uniqueKeysWithValues: definition.allQuestions.map { ($0.name, $0) })
        XCTAssertEqual(questions["enumerator"]?.defaultValue, "${last-saved#enumerator}")
        XCTAssertEqual(questions["c"]?.calculation, "concat('was ', ${last-saved#n})")
        XCTAssertNil(questions["__last-saved"], "the instance is no data file to declare")
    }
}
