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

    /// A number styled as a date reads as the date pyxform reads (openpyxl's
    /// datetime as Python prints it): a form's `version` typed as a date.
    func testXLSX_datesReadAsTheDatesTheirStylesShow() throws {
        let styles = """
            <numFmts count="5"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm"/>\
            <numFmt numFmtId="165" formatCode="&quot;Day &quot;0"/><numFmt numFmtId="166" formatCode="[Red]0.00"/>\
            <numFmt numFmtId="167" formatCode="[$-409]h:mm AM/PM"/><numFmt numFmtId="168" formatCode="\\d0"/></numFmts>\
            <cellXfs count="9"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="46"/>\
            <xf numFmtId="165"/><xf numFmtId="166"/><xf numFmtId="167"/><xf numFmtId="168"/><xf numFmtId="30"/></cellXfs>
            """
        func cells(_ values: [(style: Int, value: String)]) -> String {
            "<row r=\"1\">" + values.map { "<c s=\"\($0.style)\"><v>\($0.value)</v></c>" }.joined() + "</row>"
        }
        let row = cells([
            (1, "45384"), (2, "44662.6850575292"), (1, "0.5"), (1, "59"), (1, "61"), (1, "0.99999999999"),
            (3, "1.5"), (3, "-0.25"), (3, "2.0000001"), (4, "7"), (5, "2.5"), (6, "0.75"), (7, "3"), (8, "45384"),
            (1, "3000000"), (0, "45384"), (99, "45384"),
        ])
        let workbook = try WorkbookReader.read(contentsOf: FormFixtures.file("form.xlsx", FormFixtures.xlsx(
            sheets: [("survey", row)], styles: styles
        )))
        XCTAssertEqual(workbook.sheets[0].rows[0].cells, [
            "2024-04-02 00:00:00", "2022-04-11 16:26:28.971000", "12:00:00",
            "1900-02-28 00:00:00", "1900-03-01 00:00:00", "1900-01-01 00:00:00",
            "1 day, 12:00:00", "-1 day, 18:00:00", "2 days, 0:00:00.009000",
            "7", "2.5", "18:00:00", "3", "45384",
            "#VALUE!", "45384", "45384",
        ], "dates, times and durations; quoted text, colours and escaped letters are no date; a locale is")

        let mac = try WorkbookReader.read(contentsOf: FormFixtures.file("form.xlsx", FormFixtures.xlsx(
            sheets: [("survey", cells([(1, "1"), (1, "-1.5")]))], styles: styles, workbookProperties: "date1904=\"1\""
        )))
        XCTAssertEqual(mac.sheets[0].rows[0].cells, ["1904-01-02 00:00:00", "1903-12-30 12:00:00"], "counted from 1904")
    }

    /// XML reads a literal CR LF or CR as LF, as pyxform's reader does.
    func testXLSX_lineEndsReadAsXMLReadsThem() throws {
        let data = try FormFixtures.xlsx(
            sheets: [("survey", "<row r=\"1\"><c t=\"s\"><v>0</v></c><c t=\"inlineStr\"><is><t>c\rd</t></is></c></row>")],
            sharedStrings: ["<t>a\r\nb&#13;c</t>"]
        )
        let workbook = try WorkbookReader.read(contentsOf: FormFixtures.file("form.xlsx", data))
        XCTAssertEqual(workbook.sheets[0].rows[0].cells, ["a\nb\rc", "c\nd"])
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
            XCTAssertTrue("\(error)".contains("expected .xlsx, .xls, .csv, .md or an XForm's .xml"), "\(error)")
        }
        let malformed = try FormFixtures.xlsx(sheets: [("survey", "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>type</is></c></row>")])
        XCTAssertThrowsError(try WorkbookReader.read(contentsOf: FormFixtures.file("form.xlsx", malformed))) { error in
            XCTAssertTrue("\(error)".contains("not well-formed XML"), "\(error)")
        }
    }
}
