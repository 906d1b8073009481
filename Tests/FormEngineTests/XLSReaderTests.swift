@testable import FormEngine
import Foundation
import XCTest

/// Legacy Excel workbooks (`.xls`), read as pyxform reads them through
/// xlrd, and damaged ones refused with a reason. The workbooks are written
/// record by record as the tests run (`XLSWriter`); the public ones pyxform
/// ships are compared with pyxform itself in
/// `Tests/FormReference/test_public_workbooks.py`.
final class XLSReaderTests: XCTestCase {
    private typealias W = XLSWriter

    /// A survey sheet holding every kind of cell a workbook stores, a
    /// settings sheet, and a chart sheet a form does not read.
    private func workbook(padding: Int = 0) -> XLSWriter {
        var writer = XLSWriter()
        // A date format of the workbook's own (164), a built-in time (21),
        // and styles 0 (general), 1 (the date), 2 (the time).
        writer.globals = [
            (0x041E, W.u16(164) + W.unicodeString("yyyy-mm-dd", wide: false)),
            (0x00E0, W.u16(0) + W.u16(0) + [UInt8](repeating: 0, count: 16)),
            (0x00E0, W.u16(0) + W.u16(164) + [UInt8](repeating: 0, count: 16)),
            (0x00E0, W.u16(0) + W.u16(21) + [UInt8](repeating: 0, count: 16)),
        ]
        // Shared strings: "type", "name", "label", then "Your ñame" cut
        // after "Your " into a CONTINUE record whose characters are two
        // bytes each, then a rich string whose runs are skipped.
        let first = W.u32(5) + W.u32(5) + W.unicodeString("type", wide: false) + W.unicodeString("name", wide: false)
            + W.unicodeString("label", wide: false) + W.u16(9) + [0] + W.characters(Array("Your ".utf16), wide: false)
        let second = [1] + W.characters(Array("ñame".utf16), wide: true)
            + W.u16(4) + [0x08] + W.u16(1) + W.characters(Array("bold".utf16), wide: false) + W.u32(0)
        writer.sharedStringParts = [first, second]
        // MulRk: the row, the first column, then each cell's style and RK number, then the last column.
        let mulRK = W.u16(3) + W.u16(0) + W.u16(0) + W.u32((1 << 2) | 2) + W.u16(0) + W.u32((250 << 2) | 3) + W.u16(1)
        var survey = XLSWriter.SheetRecords(name: "survey", records: [
            W.labelSST(0, 0, 0), W.labelSST(0, 1, 1), W.labelSST(0, 2, 2), W.label(0, 3, "hint"),
            W.label(1, 0, "text"), W.labelSST(1, 1, 1), W.labelSST(1, 2, 3), W.label(1, 3, "  padded\u{A0}hint  ", wide: true),
            W.label(2, 0, "integer"), W.number(2, 1, 12.5), (0x027E, W.cell(2, 2) + W.u32((7 << 2) | 2)), W.labelSST(2, 3, 4),
            (0x00BD, mulRK), W.number(3, 3, 45384, style: 1), W.number(3, 4, 0.5, style: 2),
            (0x0205, W.cell(4, 0) + [1, 0]), (0x0205, W.cell(4, 1) + [0x2A, 1]),
            (0x0006, W.cell(4, 2) + [0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 6)),
            (0x0207, W.unicodeString("from a formula", wide: false)),
            (0x0006, W.cell(4, 3) + W.double(3) + [UInt8](repeating: 0, count: 6)),
        ])
        // Records a form never reads, to grow the stream past the mini stream's cutoff.
        if padding > 0 { survey.records.append((0x0293, [UInt8](repeating: 0, count: padding))) }
        writer.sheets = [
            survey,
            XLSWriter.SheetRecords(name: "Chart1", kind: 2),
            XLSWriter.SheetRecords(name: "settings", records: [W.label(0, 0, "form_id"), W.label(1, 0, "legacy")]),
        ]
        return writer
    }

    private func read(_ data: Data, _ name: String = "form.xls") throws -> Workbook {
        try WorkbookReader.read(contentsOf: FormFixtures.file(name, data))
    }

    func testEveryKindOfCell_readsAsXlrdAndPyxformShowIt_inASmallStreamAndALargeOne() throws {
        for padding in [0, 6000] {
            let data = workbook(padding: padding).file()
            let book = try read(data)
            XCTAssertEqual(book.sheets.map(\.name), ["survey", "settings"], "the chart sheet is no worksheet")
            let rows = try XCTUnwrap(book.sheets.first).rows
            XCTAssertEqual(rows.map(\.number), [1, 2, 3, 4, 5])
            XCTAssertEqual(rows[0].cells, ["type", "name", "label", "hint"])
            XCTAssertEqual(rows[1].cells, ["text", "name", "Your ñame", "padded hint"], "a string continued two bytes wide; text stripped")
            XCTAssertEqual(rows[2].cells, ["integer", "12.5", "7", "bold"], "a rich string's runs are not its text")
            XCTAssertEqual(rows[3].cells, ["1", "2.5", "", "2024-04-02 00:00:00", "12:00:00"],
                           "RK numbers, a hundredth too; a date and a time as Python prints xlrd's")
            XCTAssertEqual(rows[4].cells, ["TRUE", "42", "from a formula", "3"], "a boolean, an error's code, formulas' results")
            XCTAssertEqual(book.sheets[1].rows.map(\.cells), [["form_id"], ["legacy"]])
        }
    }

    func testDatesAreXlrdsToTheSecond_andThoseItRefusesAreRefused() {
        let cases: [(Double, Bool, String?)] = [
            (0, false, "00:00:00"), (0.5, false, "12:00:00"), (45384, false, "2024-04-02 00:00:00"),
            (45384.75, false, "2024-04-02 18:00:00"), (61, false, "1900-03-01 00:00:00"),
            (1.0 / 86_400 * 0.5, false, "00:00:00"), (1.5 / 86_400, false, "00:00:02"),
            // Rounded up to day 1, which the 1900 count cannot tell from its missing 29 February: xlrd refuses it.
            (0.999_999_99, false, nil),
            (0, true, "00:00:00"), (1, true, "1904-01-02 00:00:00"), (43922, true, "2024-04-02 00:00:00"),
            (60, false, nil), (-1, false, nil), (2_958_466, false, nil), (.nan, false, nil), (1e308, false, nil), (.infinity, false, nil),
        ]
        for (serial, counts1904, expected) in cases {
            XCTAssertEqual(BIFFDates.shown(serial, counts1904: counts1904), expected, "\(serial), 1904: \(counts1904)")
        }
    }

    func testAWorkbookCutShortAnywhereIsRefusedAsDamaged_neverATrap() throws {
        let data = workbook(padding: 6000).file()
        for length in stride(from: 0, to: data.count, by: 97) {
            XCTAssertThrowsError(try read(data.prefix(length)), "cut at \(length)") { error in
                XCTAssertTrue("\(error)".hasPrefix("form.xls: not a readable .xls workbook: "), "\(error)")
            }
        }
    }

    func testLoopsAndSectorsBeyondTheFileAreDamage() throws {
        var looped = [UInt8](workbook(padding: 6000).file())
        // The stream's second sector leads back to its first.
        looped[512 + 4 * 3..<512 + 4 * 4] = ArraySlice(W.u32(2))
        XCTAssertThrowsError(try read(Data(looped))) { XCTAssertTrue("\($0)".contains("ends before the stream does")
            || "\($0)".contains("loops"), "\($0)") }

        var beyond = [UInt8](workbook(padding: 6000).file())
        beyond[512 + 4 * 3..<512 + 4 * 4] = ArraySlice(W.u32(90_000))
        XCTAssertThrowsError(try read(Data(beyond))) { XCTAssertTrue("\($0)".contains("beyond the file's end"), "\($0)") }

        var directoryLoop = [UInt8](workbook().file())
        directoryLoop[512 + 4 * 1..<512 + 4 * 2] = ArraySlice(W.u32(1))
        XCTAssertThrowsError(try read(Data(directoryLoop))) { XCTAssertTrue("\($0)".contains("loops"), "\($0)") }
    }

    func testWhatCannotBeReadIsSaid() throws {
        var protected = workbook()
        protected.globals.insert((0x002F, [0, 0]), at: 0)
        XCTAssertThrowsError(try read(protected.file())) { XCTAssertTrue("\($0)".contains("protected by a password"), "\($0)") }

        var old = workbook()
        old.version = 0x0400
        XCTAssertThrowsError(try read(old.file())) { XCTAssertTrue("\($0)".contains("older than Excel 5.0"), "\($0)") }

        var manyStrings = workbook()
        manyStrings.sharedStringParts = [W.u32(5_000_000) + W.u32(5_000_000)]
        XCTAssertThrowsError(try read(manyStrings.file())) { XCTAssertTrue("\($0)".contains("5000000 shared strings"), "\($0)") }

        XCTAssertThrowsError(try read(Data("type,name\n".utf8))) { XCTAssertTrue("\($0)".contains("not a compound file"), "\($0)") }
        // A .xlsx given the old extension is not taken for what it is not.
        XCTAssertThrowsError(try read(Data([0x50, 0x4B, 3, 4] + [UInt8](repeating: 0, count: 600)))) {
            XCTAssertTrue("\($0)".contains("not a readable .xls workbook"), "\($0)")
        }
    }

    func testAnExcel95Workbook_readsItsTextInItsCodePage() throws {
        var writer = XLSWriter()
        writer.version = 0x0500
        // Excel 5.0/95: no shared strings; a label is a 16-bit count and the code page's bytes.
        func label(_ row: Int, _ column: Int, _ bytes: [UInt8]) -> (type: Int, body: [UInt8]) {
            (0x0204, W.cell(row, column) + W.u16(bytes.count) + bytes)
        }
        for (codePage, expected) in [(1252, "Café"), (1251, "Cafй")] {
            writer.globals = [(0x0042, W.u16(codePage))]
            writer.sheets = [XLSWriter.SheetRecords(name: "survey", records: [
                label(0, 0, Array("type".utf8)), label(0, 1, Array("label".utf8)),
                label(1, 0, Array("note".utf8)), label(1, 1, Array("Caf".utf8) + [0xE9]), W.number(1, 2, 3),
            ])]
            let book = try read(writer.file(streamName: "Book"))
            XCTAssertEqual(book.sheets.map(\.name), ["survey"])
            XCTAssertEqual(book.sheets[0].rows.map(\.cells), [["type", "label"], ["note", expected, "3"]], "code page \(codePage)")
        }
    }

    func testCellsBeyondTheLastColumnOrPastTheBudget_areRefused_andASheetListedManyTimesIsReadOnce() throws {
        var far = workbook()
        far.sheets[0].records.append(W.label(9, 20_000, "far"))
        XCTAssertThrowsError(try read(far.file())) { XCTAssertTrue("\($0)".contains("row 10: a cell lies beyond the last column"), "\($0)") }

        // 200 rows each ending at the last column: 3.3 million cells, most of them empty.
        var wide = XLSWriter()
        wide.sheets = [XLSWriter.SheetRecords(name: "survey", records: (0..<200).map { W.label($0, 16_383, "x") })]
        XCTAssertThrowsError(try read(wide.file())) { XCTAssertTrue("\($0)".contains("counting the empty ones"), "\($0)") }

        // A thousand sheets listed at one place, all called survey, whose
        // 2,700 cells read a thousand times would pass the budget: one sheet's work.
        func mulRK(row: Int) -> (type: Int, body: [UInt8]) {
            (0x00BD, W.u16(row) + W.u16(0) + (0..<1350).flatMap { _ in W.u16(0) + W.u32((1 << 2) | 2) } + W.u16(1349))
        }
        var many = XLSWriter()
        many.sheets = [XLSWriter.SheetRecords(name: "survey", records: [mulRK(row: 0), mulRK(row: 1)])]
            + (1..<1000).map { _ in XLSWriter.SheetRecords(name: "survey") }
        var stream = many.stream()
        // Every entry of the list (after the 20-byte BOF, 18 bytes each) points at the first sheet.
        let list = (0..<1000).map { 20 + 18 * $0 }
        XCTAssertEqual(Array(stream[list[1]..<(list[1] + 2)]), [0x85, 0])
        let first = Array(stream[(list[0] + 4)..<(list[0] + 8)])
        for entry in list { stream.replaceSubrange((entry + 4)..<(entry + 8), with: first) }
        let book = try read(Data(XLSWriter.compoundFile(stream)))
        XCTAssertEqual(book.sheets.count, 1000)
        XCTAssertEqual(book.sheets.last?.rows.map(\.cells.count), [1350, 1350])
    }

    func testAStringThatSaysMoreThanItsRecordHoldsIsDamage() throws {
        var writer = workbook()
        writer.sheets[0].records.append((0x0204, W.cell(9, 0) + W.u16(60_000) + [1] + [0x41, 0]))
        XCTAssertThrowsError(try read(writer.file())) { XCTAssertTrue("\($0)".contains("runs past its record"), "\($0)") }
    }
}
