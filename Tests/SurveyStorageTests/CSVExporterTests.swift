import XCTest
import SurveyModel
import SurveyStorage

final class CSVExporterTests: XCTestCase {
    func testHeader() {
        XCTAssertEqual(
            CSVExporter.document(for: []),
            "submitted_at,name,company,years_of_experience,current_employer,approx_salary,comments\r\n"
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
        try CSVExporter.write(responses, to: target)
        let text = try String(contentsOf: target, encoding: .utf8)
        XCTAssertEqual(text.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count, 4)
    }

    func testWrite_toMissingFolderReportsError() throws {
        let target = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/export.csv")
        XCTAssertThrowsError(try CSVExporter.write([], to: target)) { error in
            XCTAssertTrue((error as? StorageError)?.message.contains("export") == true)
        }
    }
}
