import FormEngine
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest

/// A response as the XML instance ODK Collect submits.
final class SubmissionXMLTests: XCTestCase {
    @MainActor func testAResponse_isWrittenInFormOrder_repeatsRepeated_irrelevantLeftOut_metaLast() async throws {
        let definition = try FormFixtures.definition("""
            | settings |
            | | form_id | version | instance_name | name |
            | | household | 2024-11 | concat('House ', ${head}) | survey |
            | survey |
            | | type | name | label | relevant |
            | | audit | audit | | |
            | | text | head | Head of household | |
            | | note | intro | Members follow | |
            | | begin group | home | Home | |
            | | integer | rooms | Rooms | |
            | | text | why | Why so many? | ${rooms} > 10 |
            | | end group | | | |
            | | begin repeat | member | Member | |
            | | text | name | Name | |
            | | integer | age | Age | |
            | | end repeat | | | |
            | | text | remark | Remark | |
            """)
        let form = try FormViewModel(definition: definition)
        form.restore([
            ("head", "Ada & \"Bob\" <Lovelace>\u{7}"), ("home/rooms", "3"),
            ("member[1]/name", "Ada"), ("member[1]/age", "36"), ("member[2]/name", "Byron"),
        ])
        let xml = SubmissionXML.document(
            for: definition, answers: form.answers(), instanceID: "uuid:new", instanceName: form.instanceName(),
            deprecatedID: "uuid:old"
        )
        XCTAssertEqual(xml, """
            <?xml version="1.0" encoding="UTF-8"?>
            <survey id="household" version="2024-11"><head>Ada &amp; "Bob" &lt;Lovelace&gt;</head>\
            <home><rooms>3</rooms></home>\
            <member><name>Ada</name><age>36</age></member><member><name>Byron</name><age/></member>\
            <remark/>\
            <meta><audit>audit.csv</audit><instanceID>uuid:new</instanceID>\
            <instanceName>House Ada &amp; "Bob" &lt;Lovelace&gt;</instanceName><deprecatedID>uuid:old</deprecatedID></meta></survey>

            """, "the irrelevant 'why' and the note left out; a blank answer an empty element; a control character dropped")
        XCTAssertTrue(XMLParser(data: Data(xml.utf8)).parse(), "well-formed")
    }

    func testAFormWithoutSettings_isRootedAtData_withItsFileNameAsID_andNoInstanceName() throws {
        let definition = try FormFixtures.definition("""
            | survey |
            | | type | name | label |
            | | text | a | A |
            """, file: "visit.md")
        let xml = SubmissionXML.document(for: definition, answers: [("a", "x")], instanceID: "uuid:1")
        XCTAssertTrue(xml.hasSuffix("<data id=\"visit\"><a>x</a><meta><instanceID>uuid:1</instanceID></meta></data>\n"), xml)
    }
}
