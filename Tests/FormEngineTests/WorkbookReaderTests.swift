@testable import FormEngine
import Foundation
import XCTest

final class WorkbookReaderTests: XCTestCase {
    // MARK: - Markdown layout

    func testMarkdown_readsSheetsRowsAndEscapedBars() throws {
        let workbook = try MarkdownLayoutReaderProbe.read("""
            # A comment line
            Some prose outside the tables.

            | survey |
            |--------|------|------|-------|
            |        | type | name | label |
            |        | text | a    | A \\| B |

            |        |      |      |       |
            |        | note | n    | Hi    | # a trailing comment

            | Choices |
            | | list_name | name | label |
            """)
        XCTAssertEqual(workbook.layout, .markdown)
        XCTAssertEqual(workbook.sheets.map(\.name), ["survey", "Choices"])
        let survey = try XCTUnwrap(workbook.sheet(named: "SURVEY"))
        XCTAssertEqual(survey.rows.map(\.number), [1, 2, 3], "blank table rows are not counted")
        XCTAssertEqual(survey.rows[0].cells, ["type", "name", "label"])
        XCTAssertEqual(survey.rows[1].cells, ["text", "a", "A | B"])
        XCTAssertEqual(survey.rows[2].cells, ["note", "n", "Hi"])
        XCTAssertNotNil(workbook.sheet(named: "choices"))
    }

    func testMarkdown_aSheetNamedAgainReplacesTheEarlierOne() throws {
        let workbook = try MarkdownLayoutReaderProbe.read("""
            | survey |
            | | type | name |
            | | text | a |
            | survey |
            | | type | name |
            | | text | b |
            """)
        XCTAssertEqual(workbook.sheets.count, 1)
        XCTAssertEqual(workbook.sheets[0].rows.last?.cells, ["text", "b"])
    }

    // MARK: - CSV layout

    func testCSV_quotedFieldsAndSheetNameOnTheHeaderRow() throws {
        let csv = "survey,type,name,label\r\n,text,a,\"Hello, \"\"you\"\"\nthere\"\r\n,,,\r\nchoices\r\n,list_name,name,label\r\n,yn,y,Yes\r\n"
        let url = try FormFixtures.file("form.csv", Data(csv.utf8))
        let workbook = try WorkbookReader.read(contentsOf: url)
        XCTAssertEqual(workbook.layout, .csv)
        let survey = try XCTUnwrap(workbook.sheet(named: "survey"))
        XCTAssertEqual(survey.rows.map(\.cells), [["type", "name", "label"], ["text", "a", "Hello, \"you\"\nthere"]])
        XCTAssertEqual(workbook.sheet(named: "choices")?.rows.map(\.number), [1, 2])
    }

    // MARK: - Spreadsheets

    func testXLSX_readsEveryKindOfCellAsItIsShown() throws {
        let data = try FormFixtures.xlsx(
            sheets: [
                ("survey", """
                    <row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>label</t></is></c></row>
                    <row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="str"><f>"a"&amp;"b"</f><v>ab</v></c><c r="C2" t="s"><v>3</v></c></row>
                    <row r="5"><c r="A5" t="b"><v>1</v></c><c r="B5"><v>2024091201</v></c><c r="D5"><v>0.5</v></c><c r="E5"><v>5.0</v></c></row>
                    """),
            ],
            sharedStrings: ["<t>type</t>", "<t>name</t>", "<t xml:space=\"preserve\"> text </t>",
                            "<r><t>Rich </t></r><r><t>text</t></r><rPh><t>phonetic</t></rPh>"]
        )
        let url = try FormFixtures.file("form.xlsx", data)
        let workbook = try WorkbookReader.read(contentsOf: url)
        let survey = try XCTUnwrap(workbook.sheet(named: "survey"))
        XCTAssertEqual(survey.rows.map(\.number), [1, 2, 5], "spreadsheet rows keep their numbers")
        XCTAssertEqual(survey.rows[0].cells, ["type", "name", "label"])
        XCTAssertEqual(survey.rows[1].cells, ["text", "ab", "Rich text"], "trimmed, formula's cached value, runs joined")
        XCTAssertEqual(survey.rows[2].cells, ["TRUE", "2024091201", "", "0.5", "5"])
    }

    func testXLSX_sheetOrderComesFromTheWorkbookNotThePartNames() throws {
        let data = try FormFixtures.xlsx(
            sheets: [("survey", "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>type</t></is></c></row>"),
                     ("choices", "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>list_name</t></is></c></row>")],
            reversedParts: true
        )
        let workbook = try WorkbookReader.read(contentsOf: FormFixtures.file("form.xlsx", data))
        XCTAssertEqual(workbook.sheets.map(\.name), ["survey", "choices"])
        XCTAssertEqual(workbook.sheet(named: "survey")?.rows.first?.cells, ["type"])
    }

    func testXLSX_sheetNamesHaveTheirEntitiesDecoded() throws {
        let data = try FormFixtures.xlsx(sheets: [("Q&amp;A &lt;1&gt;", "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>x</t></is></c></row>")])
        let workbook = try WorkbookReader.read(contentsOf: FormFixtures.file("form.xlsx", data))
        XCTAssertEqual(workbook.sheets.map(\.name), ["Q&A <1>"])
    }

    func testAnAttributeInANamespace_isNotAPlainOneOfTheSameName() throws {
        let xml = Array(#"<sheet id="plain" name="survey" r:id="rId7"/>"#.utf8)
        try xml.withUnsafeBufferPointer { bytes in
            var scanner = XMLScanner(bytes)
            guard case .start(_, let attributes, _) = try scanner.next() else { return XCTFail("a start tag") }
            XCTAssertEqual(scanner.attributeValue("id", in: attributes).map { scanner.text($0) }, "plain")
            XCTAssertEqual(scanner.attributeValue("id", in: attributes, prefixed: true).map { scanner.text($0) }, "rId7")
            XCTAssertNil(scanner.attributeValue("name", in: attributes, prefixed: true))
        }
    }

    func testXLSX_noBreakSpacesBecomePlainSpaces() throws {
        let data = try FormFixtures.xlsx(sheets: [("survey", "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>a\u{A0}b</t></is></c></row>")])
        let workbook = try WorkbookReader.read(contentsOf: FormFixtures.file("form.xlsx", data))
        XCTAssertEqual(workbook.sheets[0].rows[0].cells, ["a b"])
    }

    // MARK: - Files that are not forms

    func testUnreadableFilesGetAClearError() throws {
        let notZip = try FormFixtures.file("form.xlsx", Data("not a zip".utf8))
        XCTAssertThrowsError(try WorkbookReader.read(contentsOf: notZip)) { error in
            XCTAssertEqual("\(error)", "form.xlsx: not a readable .xlsx workbook: it is not a zip archive")
        }
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID()).md")
        XCTAssertThrowsError(try WorkbookReader.read(contentsOf: missing)) { error in
            XCTAssertTrue("\(error)".contains("cannot be read"), "\(error)")
        }
        let wrongKind = try FormFixtures.file("form.txt", Data("| survey |".utf8))
        XCTAssertThrowsError(try WorkbookReader.read(contentsOf: wrongKind)) { error in
            XCTAssertTrue("\(error)".contains("expected .xlsx, .csv, .md or an XForm's .xml"), "\(error)")
        }
        let malformed = try FormFixtures.xlsx(sheets: [("survey", "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>type</is></c></row>")])
        XCTAssertThrowsError(try WorkbookReader.read(contentsOf: FormFixtures.file("form.xlsx", malformed))) { error in
            XCTAssertTrue("\(error)".contains("not well-formed XML"), "\(error)")
        }
    }
}
