@testable import SurveySync
import XCTest

/// The server export's file names come from form ids and versions, which
/// any publisher chose: cleaned, never hidden, and never one for two forms.
final class ExportFileNameTests: XCTestCase {
    func testIDsThatCleanToTheSameName_getNamesOfTheirOwn() {
        let forms = [("a/b", "1"), ("a_b", "1"), ("A_B", "1"), ("household", "2024")].map { (formID: $0, version: $1) }
        let names = ServerExport.fileNames(for: forms)
        XCTAssertEqual(names[3], "household-v2024.csv", "a name no other form takes stays as it was")
        XCTAssertEqual(Set(names.map { $0.lowercased() }).count, 4, "\(names)")
        for name in names[0...2] {
            XCTAssertTrue(name.lowercased().hasPrefix("a_b-v1-") && name.hasSuffix(".csv"), name)
        }
        XCTAssertEqual(ServerExport.fileNames(for: forms), names, "the same names at every export")
    }

    func testNamesAreNeverHiddenOrLongerThanAFileSystemTakes() {
        XCTAssertEqual(ServerExport.fileName(formID: "..", version: ""), "_..csv")
        XCTAssertEqual(ServerExport.fileName(formID: ".hidden", version: "."), "_hidden-v_.csv")
        XCTAssertEqual(ServerExport.fileName(formID: "", version: ""), "_.csv")
        let long = ServerExport.fileName(formID: String(repeating: "é", count: 500), version: String(repeating: "9", count: 500))
        XCTAssertLessThanOrEqual(long.utf8.count, 255)
    }
}
