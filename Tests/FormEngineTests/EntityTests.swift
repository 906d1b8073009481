@testable import FormEngine
import Foundation
import Synchronization
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest

/// ODK entities: the entities sheet (or an XForm's `meta/entity`) read as
/// pyxform reads it, and each response's `meta/entity` element as Collect
/// submits it for the server to create or update the entity.
final class EntityTests: XCTestCase {
    private static let register = """
        | survey |
        | | type | name | label | save_to |
        | | text | species | Species | species |
        | | integer | height | Height | height |
        | | select_one yes_no | alive | Alive? | |
        | choices |
        | | list_name | name | label |
        | | yes_no | yes | Yes |
        | | yes_no | no | No |
        | entities |
        | | list_name | label | create_if |
        | | trees | concat(${species}, ' ', ${height}) | ${alive} = 'yes' |
        """

    private static let trees = """
        name,label,__version,__trunkVersion,__branchId
        t-1,Oak,4,3,b-9
        t-2,Birch,1,1,b-2
        """

    private func media(_ files: [String: String]) throws -> FormMedia {
        var folder: URL?
        for (name, text) in files {
            folder = try FormFixtures.file(name, Data(text.utf8)).deletingLastPathComponent()
        }
        return FormMedia(folders: folder.map { [$0] } ?? [])
    }

    func testTheEntitiesSheet_isReadAsPyxformReadsIt() throws {
        let definition = try FormFixtures.definition(Self.register)
        XCTAssertEqual(definition.entities, [EntityDeclaration(
            dataset: "trees", label: "concat(${species}, ' ', ${height})", entityID: nil, createIf: "${alive} = 'yes'",
            updateIf: nil, repeatName: nil, row: 2
        )])
        XCTAssertTrue(definition.entities[0].creates)
        XCTAssertFalse(definition.entities[0].updates)
    }

    func testWhatPyxformRefusesOnTheEntitiesSheet_isRefusedWithItsRow() {
        func problems(_ entities: String, survey: String = "| | text | a | A | |") -> [String] {
            FormFixtures.problems("""
                | survey |
                | | type | name | label | save_to |
                \(survey)
                \(entities)
                """).map(\.description)
        }
        XCTAssertEqual(problems("| entities |\n| | list_name | label |\n| | a.b | ${a} |"),
                       ["entities row 2: The 'list_name' value is invalid. Names used here must not contain a period."])
        XCTAssertEqual(problems("| entities |\n| | list_name | label |\n| | __t | ${a} |"),
                       ["entities row 2: The 'list_name' value is invalid. Names used here must not begin with two underscores."])
        XCTAssertEqual(problems("| entities |\n| | list_name |\n| | trees |"),
                       ["entities row 2: The 'label' value is invalid. The entity list 'trees' creates entities, which need a 'label'."])
        XCTAssertEqual(problems("| entities |\n| | list_name | label | update_if |\n| | trees | ${a} | true() |").first?
            .hasPrefix("entities row 2: The 'update_if' value is invalid."), true)
        XCTAssertEqual(problems("| entities |\n| | list_name | entity_id | create_if |\n| | trees | ${a} | true() |").first?
            .hasPrefix("entities row 2: The 'create_if' value is invalid."), true)
        XCTAssertEqual(problems("| entities |\n| | list_name | label |\n| | trees | ${a} |\n| | bees | ${a} |").first?
            .hasPrefix("entities row 3: The entity list 'bees' cannot be declared in the survey"), true)
        XCTAssertEqual(problems("| entities |\n| | list_name | label |\n| | trees | ${nowhere} |"),
                       ["entities row 2: The 'label' value refers to ${nowhere}, but no question is named 'nowhere'."])
        XCTAssertEqual(problems("| entities |\n| | list_name | label | colour |\n| | trees | ${a} | red |"), [
            "entities row 1: The column names 'colour' are not entities columns; the columns are list_name, label, entity_id, create_if, update_if and repeat.",
        ])
        // save_to: only with an entities sheet, on a question, a usable name, once.
        XCTAssertEqual(problems("", survey: "| | text | a | A | height |"), [
            "survey row 2: The 'save_to' value is invalid. Saving to an entity property needs an entities sheet that declares the entity list.",
        ])
        let entities = "| entities |\n| | list_name | label |\n| | trees | ${a} |"
        XCTAssertEqual(problems(entities, survey: "| | text | a | A | Label |"),
                       ["survey row 2: The 'save_to' value is invalid. Names used here must not be 'name' or 'label' (case-insensitive)."])
        XCTAssertEqual(problems(entities, survey: "| | text | a | A | h |\n| | text | b | B | h |"),
                       ["survey row 3: The 'save_to' value is invalid. The property 'h' is already saved from row 2."])
        XCTAssertEqual(problems(entities, survey: "| | text | a | A | |\n| | begin group | g | G | h |\n| | end group | | | |"),
                       ["survey row 3: The 'save_to' value is invalid. A group or repeat cannot be saved to an entity property."])
    }

    @MainActor func testACreatedEntity_carriesItsLabelAndCondition_andKeepsItsIdAcrossAnEdit() async throws {
        let definition = try FormFixtures.definition(Self.register)
        let ids = Counter()
        let form = try FormViewModel(definition: definition, environment: FormEnvironment(newInstanceID: { "uuid:id-\(ids.next())" }))
        form.restore([("species", "Oak"), ("height", "12"), ("alive", "no")])
        XCTAssertEqual(form.createdEntityID, "id-2", "a UUID as uuid() gives it, without the instance id's prefix")
        var entity = SubmissionXML.Entity(dataset: "trees")
        entity.create = "false"
        entity.id = "id-2"
        entity.label = "Oak 12"
        XCTAssertEqual(form.entities(), [entity])
        form.state(named: "alive")!.value.value = "yes"
        XCTAssertEqual(form.entities().first?.create, "true", "create_if follows the answers")

        // Stored with the answers, the id comes back with them: an edit
        // submits the same entity, not a second one.
        let answers = form.answers()
        XCTAssertEqual(answers.last?.path, FormViewModel.entityIDPath)
        let edit = try FormViewModel(definition: definition, environment: FormEnvironment(newInstanceID: { "uuid:id-\(ids.next())" }))
        XCTAssertEqual(edit.createdEntityID, "id-4")
        edit.restore(answers)
        XCTAssertEqual(edit.createdEntityID, "id-2")
        XCTAssertEqual(edit.entities(), form.entities())

        // The next response creates its own entity.
        edit.reset()
        XCTAssertEqual(edit.createdEntityID, "id-6")

        let xml = SubmissionXML.document(for: definition, answers: answers, instanceID: "uuid:r", entities: form.entities())
        XCTAssertTrue(xml.contains("""
            <alive>yes</alive><meta><entity dataset="trees" create="true" id="id-2"><label>Oak 12</label></entity>\
            <instanceID>uuid:r</instanceID></meta>
            """), xml)
        XCTAssertFalse(xml.contains("@id"), "the id is the entity's attribute, not an answer's element")
        XCTAssertTrue(XMLParser(data: Data(xml.utf8)).parse(), "well-formed")
    }

    @MainActor func testAnUpdatedEntity_readsItsVersionsFromTheListTheServerGives() async throws {
        let definition = try FormFixtures.definition("""
            | survey |
            | | type | name | label | save_to |
            | | select_one_from_file trees.csv | tree | Tree | |
            | | integer | height | Height | height |
            | entities |
            | | list_name | entity_id | update_if |
            | | trees | ${tree} | ${height} > 0 |
            """)
        XCTAssertEqual(definition.entities.first?.updates, true)
        XCTAssertEqual(definition.entities.first?.creates, false)
        let form = try FormViewModel(definition: definition, media: media(["trees.csv": Self.trees]))
        XCTAssertNil(form.createdEntityID, "an update creates nothing")
        form.restore([("tree", "t-1"), ("height", "14")])
        XCTAssertFalse(form.answers().contains { $0.path == FormViewModel.entityIDPath })
        let xml = SubmissionXML.document(for: definition, answers: form.answers(), instanceID: "uuid:r", entities: form.entities())
        XCTAssertTrue(xml.contains(
            #"<meta><entity dataset="trees" update="true" baseVersion="4" trunkVersion="3" branchId="b-9" id="t-1"/>"#
        ), "no label element when the row gives none: \(xml)")

        // Without the list beside the form, the versions cannot be known:
        // said, with the entities row when no question names the list.
        let typedID = try FormFixtures.definition("""
            | survey |
            | | type | name | label |
            | | text | tree | Tree |
            | entities |
            | | list_name | entity_id |
            | | trees | ${tree} |
            """)
        XCTAssertThrowsError(try FormViewModel(definition: typedID, media: media(["other.csv": "name\nx"]))) { error in
            XCTAssertTrue((error as? FormDefinitionError)?.problems.contains {
                $0.description.hasPrefix("entities row 2: ") && $0.description.contains("'trees.csv' is missing")
            } ?? false, "\(error)")
        }
    }

    @MainActor func testAnEntityPerRepeatInstance_isWrittenInEachInstance_andKeepsItsIdAcrossAnEdit() async throws {
        let definition = try FormFixtures.definition("""
            | survey |
            | | type | name | label | save_to |
            | | text | plot | Plot | |
            | | begin repeat | tree | Tree | |
            | | text | species | Species | species |
            | | end repeat | | | |
            | entities |
            | | list_name | label |
            | | trees | concat(${plot}, ': ', ${species}) |
            """)
        XCTAssertEqual(definition.entities.first?.repeatName, "tree", "placed by its reference into the repeat")
        let ids = Counter()
        let environment = FormEnvironment(newInstanceID: { "uuid:id-\(ids.next())" })
        let form = try FormViewModel(definition: definition, environment: environment)
        XCTAssertNil(form.createdEntityID, "the response itself creates none")
        form.restore([("plot", "North"), ("tree[1]/species", "Oak"), ("tree[2]/species", "Ash")])
        let entities = form.entities()
        XCTAssertEqual(entities.map(\.path), ["tree[1]/", "tree[2]/"])
        XCTAssertEqual(entities.map(\.label), ["North: Oak", "North: Ash"])
        XCTAssertEqual(Set(entities.map(\.id)).count, 2, "an id of its own for each: \(entities.map(\.id))")
        XCTAssertFalse(entities.contains { $0.id.isEmpty || $0.id.hasPrefix("uuid:") })

        let xml = SubmissionXML.document(for: definition, answers: form.answers(), instanceID: "uuid:r", entities: entities)
        XCTAssertTrue(xml.contains("""
            <tree><species>Oak</species><meta><entity dataset="trees" create="1" id="\(entities[0].id)"><label>North: Oak</label>\
            </entity></meta></tree><tree><species>Ash</species><meta><entity dataset="trees" create="1" id="\(entities[1].id)">\
            <label>North: Ash</label></entity></meta></tree><meta><instanceID>uuid:r</instanceID></meta>
            """), xml)

        // An edit names each instance's entity again.
        let edit = try FormViewModel(definition: definition, environment: environment)
        edit.restore(form.answers())
        XCTAssertEqual(edit.entities(), entities)
        XCTAssertTrue(XMLParser(data: Data(xml.utf8)).parse(), "well-formed")
    }

    func testTwoEntitiesInOneRepeat_areRefusedWithTheSecondsRow_andTheRepeatColumnIsUnused() throws {
        // pyxform places an entity by what it reads, whatever the column says.
        XCTAssertNil(try FormFixtures.definition("""
            | survey |
            | | type | name | label |
            | | text | tree | Tree |
            | entities |
            | | list_name | label | repeat |
            | | trees | ${tree} | plots |
            """).entities.first?.repeatName)
        XCTAssertEqual(FormFixtures.problems("""
            | survey |
            | | type | name | label |
            | | begin repeat | plot | Plot |
            | | text | tree | Tree |
            | | end repeat | | |
            | entities |
            | | list_name | label | repeat |
            | | trees | ${tree} | plot |
            | | bushes | ${tree} | plot |
            """).map(\.description), [
            "entities row 3: The entity list 'bushes' cannot be declared in the repeat 'plot': 'trees' (row 2) is, and each survey, group or repeat holds one entity.",
        ])
    }

    /// pyxform's XForm for an update, read back into the entities row it
    /// was written from.
    func testAnXFormsMetaEntity_readsBackIntoItsEntitiesRow() throws {
        let xml = """
            <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml" \
            xmlns:jr="http://openrosa.org/javarosa" xmlns:entities="http://www.opendatakit.org/xforms/entities">\
            <h:head><h:title>Trees</h:title><model entities:entities-version="2024.1.0">
            <instance><data id="trees_update"><tree/><h/><meta><entity dataset="trees" create="1" update="1" \
            baseVersion="" trunkVersion="" branchId="" id=""><label/></entity><instanceID/></meta></data></instance>
            <bind nodeset="/data/tree" type="string"/>
            <bind nodeset="/data/h" type="int" entities:saveto="height"/>
            <bind nodeset="/data/meta/entity/@create" calculate="/data/h &gt; 10" readonly="true()" type="string"/>
            <bind nodeset="/data/meta/entity/@update" calculate="/data/h &lt;= 10" readonly="true()" type="string"/>
            <bind nodeset="/data/meta/entity/@baseVersion" calculate="instance('trees')/root/item[name= /data/tree ]/__version"/>
            <bind nodeset="/data/meta/entity/@id" readonly="true()" type="string" calculate=" /data/tree "/>
            <bind nodeset="/data/meta/entity/label" calculate="concat('Tree ', /data/tree)" readonly="true()" type="string"/>
            <bind nodeset="/data/meta/instanceID" type="string" readonly="true()" jr:preload="uid"/>
            </model></h:head><h:body><input ref="/data/tree"><label>Tree</label></input>\
            <input ref="/data/h"><label>Height</label></input></h:body></h:html>
            """
        let definition = try FormDefinition(data: Data(xml.utf8), fileName: "trees.xml")
        XCTAssertEqual(definition.entities, [EntityDeclaration(
            dataset: "trees", label: "concat('Tree ', ${tree})", entityID: "${tree}", createIf: "${h} > 10",
            updateIf: "${h} <= 10", repeatName: nil, row: 2
        )])
        XCTAssertEqual(definition.allQuestions.map(\.name), ["tree", "h"], "the entity is no question")
    }
}

/// Numbers handed out in turn, for ids a test can predict.
private final class Counter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}
