@testable import FormEngine
import Foundation
import XCTest

/// Form files that are damaged, cut short or made to exhaust the reader:
/// each is refused with a message naming what is wrong, and none hangs,
/// traps or takes memory in proportion to what it claims. The files are made
/// as the tests run; none is stored.
final class HostileWorkbookTests: XCTestCase {
    private let survey = """
        <row r="1"><c r="A1" t="inlineStr"><is><t>type</t></is></c><c r="B1" t="inlineStr"><is><t>name</t></is></c></row>
        <row r="2"><c r="A2" t="inlineStr"><is><t>text</t></is></c><c r="B2" t="inlineStr"><is><t>a</t></is></c></row>
        """

    private func read(_ data: Data, _ name: String = "form.xlsx") throws -> Workbook {
        try WorkbookReader.read(contentsOf: FormFixtures.file(name, data))
    }

    private func assertRefused(_ data: Data, _ name: String = "form.xlsx", saying words: String, line: UInt = #line) {
        XCTAssertThrowsError(try read(data, name), line: line) { error in
            XCTAssertTrue("\(error)".hasPrefix(name + ": "), "names the file: \(error)", line: line)
            XCTAssertTrue("\(error)".contains(words), "\(error)", line: line)
        }
    }

    private func workbook(survey sheetData: String, sheets: [String] = ["survey"], partsFor: ((inout ZipWriter) -> Void)? = nil) -> Data {
        let ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
        let rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
        var zip = ZipWriter()
        // Every listed sheet shares the one part: a file may do that.
        let list = sheets.enumerated().map { "<sheet name=\"\($1)\" sheetId=\"\($0 + 1)\" r:id=\"rId1\"/>" }.joined()
        zip.add("xl/workbook.xml", "<workbook xmlns=\"\(ns)\" xmlns:r=\"\(rel)\"><sheets>\(list)</sheets></workbook>")
        zip.add("xl/_rels/workbook.xml.rels", "<Relationships><Relationship Id=\"rId1\" Target=\"worksheets/sheet1.xml\"/></Relationships>")
        zip.add("xl/worksheets/sheet1.xml", "<worksheet xmlns=\"\(ns)\"><sheetData>\(sheetData)</sheetData></worksheet>")
        partsFor?(&zip)
        return zip.data()
    }

    // MARK: - Archives

    func testAPartCutShort_isRefusedAtOnce_notInflatedForever() throws {
        var data = workbook(survey: survey)
        XCTAssertNoThrow(try read(data))
        var zip = ZipWriter()
        zip.add("xl/workbook.xml", "<workbook><sheets><sheet name=\"survey\" r:id=\"rId1\"/></sheets></workbook>")
        zip.parts.append(.init(name: "xl/worksheets/sheet1.xml", contents: Data(String(repeating: survey, count: 50).utf8)))
        let whole = ZipWriter.deflate(zip.parts[1].contents).count
        for kept in [1, whole / 2, whole - 1] {
            zip.parts[1].packedPrefix = kept
            assertRefused(zip.data(), saying: "xl/worksheets/sheet1.xml is cut short")
        }
        // A download that stopped anywhere: every prefix of the file is refused or read, never hangs.
        data = workbook(survey: String(repeating: survey, count: 20))
        for length in stride(from: 0, to: data.count, by: 3) {
            XCTAssertThrowsError(try WorkbookReader.read(data.prefix(length), fileName: "cut.xlsx"))
        }
    }

    func testAPartThatUnpacksPastItsLimit_isRefusedBeforeItIsHeld() throws {
        let bomb = Data(count: FormLimits.partBytes + 1)
        var zip = ZipWriter()
        zip.add("xl/workbook.xml", "<workbook><sheets><sheet name=\"survey\"/></sheets></workbook>")
        zip.parts.append(.init(name: "xl/worksheets/sheet1.xml", contents: bomb))
        assertRefused(zip.data(), saying: "xl/worksheets/sheet1.xml would unpack to more than 32 MB")
        // The same part, its size claimed small: the stream is still stopped at the limit.
        zip.parts[1].claimedSize = 100
        assertRefused(zip.data(), saying: "would unpack to more than 32 MB")
    }

    func testPartsThatTogetherUnpackPastTheWorkbooksLimit_areRefused() throws {
        // Each part under its own limit, the three together over the workbook's.
        let big = "<sst>" + String(repeating: " ", count: FormLimits.partBytes - 12) + "</sst>"
        let data = workbook(survey: survey, sheets: ["survey"]) { zip in
            zip.add("xl/sharedStrings.xml", big)
            zip.parts[0] = .init(
                name: "xl/workbook.xml",
                contents: Data(("<workbook><sheets><sheet name=\"survey\" r:id=\"rId1\"/></sheets>" + String(repeating: " ", count: FormLimits.partBytes - 80) + "</workbook>").utf8)
            )
        }
        assertRefused(data, saying: "the parts a form reads would unpack to more than 64 MB")
    }

    func testAClaimedSizeOrOffsetOutsideTheFile_isDamage_notATrap() throws {
        var zip = ZipWriter()
        zip.add("xl/workbook.xml", "<workbook/>")
        zip.parts[0].claimedSize = Int(UInt32.max - 1)
        assertRefused(zip.data(), saying: "would unpack to more than 32 MB")
        zip.parts[0].claimedSize = 3
        assertRefused(zip.data(), saying: "xl/workbook.xml is damaged")
        // A directory pointing past the end of the file.
        var data = workbook(survey: survey)
        data.replaceSubrange((data.count - 6)..<(data.count - 2), with: [0xF0, 0xFF, 0xFF, 0x7F])
        assertRefused(data, saying: "its directory lies outside the file")
    }

    // MARK: - Cells

    func testACellBeyondTheLastColumn_isRefusedWithItsSheetAndRow() throws {
        for reference in ["ZZZZZZ3", "XFE3", String(repeating: "Z", count: 20) + "3"] {
            let data = workbook(survey: survey + "<row r=\"3\"><c r=\"\(reference)\" t=\"inlineStr\"><is><t>x</t></is></c></row>")
            assertRefused(data, saying: "sheet 'survey' row 3: a cell lies beyond the last column a spreadsheet has (XFD)")
        }
        let last = workbook(survey: survey + "<row r=\"3\"><c r=\"XFD3\" t=\"inlineStr\"><is><t>x</t></is></c></row>")
        XCTAssertEqual(try read(last).sheets[0].rows[2].cells.count, FormLimits.columns)
    }

    func testARowNumberedBeyondTheLastRow_isRefused_evenPastIntMax() throws {
        for number in ["1048577", "9223372036854775807", "99999999999999999999999"] {
            let data = workbook(survey: survey + "<row r=\"\(number)\"><c t=\"inlineStr\"><is><t>x</t></is></c></row>")
            assertRefused(data, saying: "sheet 'survey': a row is numbered beyond the last row a spreadsheet has (1048576)")
        }
    }

    func testCellsPastTheBudget_areRefused_countingTheEmptyOnesBeforeEachRowsLast() throws {
        let rows = (3...200).map { "<row r=\"\($0)\"><c r=\"XFD\($0)\" t=\"b\"><v>1</v></c></row>" }.joined()
        assertRefused(workbook(survey: survey + rows), saying: "more than 2000000 cells")
    }

    func testASheetListedManyTimes_isParsedOnce() throws {
        // 200,000 cells, listed 20 times: parsed each time, they would pass the cell budget.
        let row = String(repeating: "<c t=\"b\"><v>1</v></c>", count: 100)
        let rows = (3..<2_003).map { "<row r=\"\($0)\">\(row)</row>" }.joined()
        let data = workbook(survey: survey + rows, sheets: Array(repeating: "survey", count: 20))
        let read = try read(data)
        XCTAssertEqual(read.sheets.count, 20)
        XCTAssertEqual(read.sheets[19].rows.count, 2_002)
    }

    func testTooManySheets_sharedStringsOrNesting_areRefused() throws {
        let names = (0...FormLimits.sheets).map { "s\($0)" }
        assertRefused(workbook(survey: survey, sheets: names), saying: "it has 1001 sheets")

        let strings = workbook(survey: survey) { zip in
            zip.add("xl/sharedStrings.xml", "<sst>" + String(repeating: "<si/>", count: FormLimits.sharedStrings + 1) + "</sst>")
        }
        assertRefused(strings, saying: "more than 1000000 entries")

        let nested = String(repeating: "<x>", count: 100) + String(repeating: "</x>", count: 100)
        assertRefused(workbook(survey: survey + nested), saying: "nests elements more than 64 deep")
    }

    func testSheetsAFormDoesNotRead_areListedButNotParsed() throws {
        // Malformed, but not a sheet a form reads.
        let ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
        var zip = ZipWriter()
        zip.add("xl/workbook.xml", "<workbook><sheets><sheet name=\"survey\" r:id=\"rId1\"/><sheet name=\"notes\" r:id=\"rId2\"/></sheets></workbook>")
        zip.add("xl/_rels/workbook.xml.rels", "<Relationships><Relationship Id=\"rId1\" Target=\"worksheets/sheet1.xml\"/><Relationship Id=\"rId2\" Target=\"worksheets/sheet2.xml\"/></Relationships>")
        zip.add("xl/worksheets/sheet1.xml", "<worksheet xmlns=\"\(ns)\"><sheetData>\(survey)</sheetData></worksheet>")
        zip.add("xl/worksheets/sheet2.xml", "<worksheet><sheetData><row r=\"1\"><c r=\"ZZZZZZ1\"/>")
        let read = try read(zip.data())
        XCTAssertEqual(read.sheets.map(\.name), ["survey", "notes"])
        XCTAssertEqual(read.sheets[1].rows, [])
    }

    // MARK: - Files that are not regular

    func testAPipeADeviceOrAFolder_isRefusedWithoutWaitingOnIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("x.csv")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertThrowsError(try WorkbookReader.read(contentsOf: fifo)) { error in
            XCTAssertEqual("\(error)", "x.csv: cannot be read: it is not a regular file (a pipe, a device or a socket)")
        }
        let zero = folder.appendingPathComponent("zero.md")
        try FileManager.default.createSymbolicLink(atPath: zero.path, withDestinationPath: "/dev/zero")
        XCTAssertThrowsError(try WorkbookReader.read(contentsOf: zero)) { error in
            XCTAssertTrue("\(error)".contains("not a regular file"), "\(error)")
        }
        let directory = folder.appendingPathComponent("form.xlsx")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        XCTAssertThrowsError(try WorkbookReader.read(contentsOf: directory)) { error in
            XCTAssertEqual("\(error)", "form.xlsx: cannot be read: it is a folder")
        }
    }

    func testAFileLargerThanAnyForm_isRefusedUnread() throws {
        let url = try FormFixtures.file("big.csv", Data())
        // Sparse: its size says 1.25 GiB, and nothing of it is written.
        XCTAssertEqual(truncate(url.path, off_t(1_280) << 20), 0)
        XCTAssertThrowsError(try WorkbookReader.read(contentsOf: url)) { error in
            XCTAssertEqual("\(error)", "big.csv: refused: it is 1280 MB; a form file is at most 64 MB")
        }
    }

    // MARK: - The text layouts

    func testCSV_manySheetsOrCells_areRefused_inTimeLinearInTheFile() throws {
        let sheets = (0..<30_000).map { "s\($0),\n" }.joined()
        assertRefused(Data(sheets.utf8), "form.csv", saying: "it names more than 1000 sheets")
        let wide = "survey,\n," + String(repeating: "a,", count: FormLimits.columns) + "\n"
        assertRefused(Data(wide.utf8), "form.csv", saying: "line 2: more than 16384 cells, the most a spreadsheet row has")
        let line = "," + String(repeating: "a,", count: 10_000) + "\n"
        let cells = "survey,\n" + String(repeating: line, count: FormLimits.cells / 10_000)
        assertRefused(Data(cells.utf8), "form.csv", saying: "line 201: the file holds more than 2000000 cells")
        let row = "|" + String(repeating: " a |", count: 10_000) + "\n"
        let markdown = "| survey |\n" + String(repeating: row, count: FormLimits.cells / 10_000)
        assertRefused(Data(markdown.utf8), "form.md", saying: "more than 2000000 cells")
        assertRefused(Data(("| survey |\n|" + String(repeating: " a |", count: FormLimits.columns + 1) + "\n").utf8), "form.md", saying: "more than 16384 cells")
    }

    func testGroupsNestedDeeperThanPyxformReads_areRefusedAtTheFirstTooDeep() throws {
        func nested(_ depth: Int) -> String {
            "| survey |\n| | type | name | label |\n"
                + (0..<depth).map { "| | begin group | g\($0) | G |\n" }.joined()
                + "| | text | a | A |\n" + String(repeating: "| | end group | | |\n", count: depth)
        }
        XCTAssertNoThrow(try FormDefinition(contentsOf: FormFixtures.file("deep.md", Data(nested(FormLimits.groupDepth).utf8))))
        XCTAssertThrowsError(try FormDefinition(contentsOf: FormFixtures.file("deep.md", Data(nested(5_000).utf8)))) { error in
            XCTAssertEqual("\(error)", "survey row \(FormLimits.groupDepth + 2): Groups and repeats nest more than 490 deep here; the reference converter refuses such a form.")
        }
    }

    func testMarkdownSavedWithWindowsLineEnds_readsAsPyxformReadsIt() throws {
        let markdown = "| survey |\r\n| | type | name | label |\r\n| | text | a | A |\r\n| | integer | b | B |\r\n"
        let definition = try FormDefinition(contentsOf: FormFixtures.file("crlf.md", Data(markdown.utf8)))
        XCTAssertEqual(definition.questions.map(\.name), ["a", "b"])
    }
}
