import Foundation
@testable import SurveyStorage
import XCTest

/// The answers column read byte by byte reads as JSONDecoder reads it, for
/// what the store writes and for what it does not.
final class StoredAnswersTests: XCTestCase {
    private let tricky: [FormResponse.Answer] = [
        FormResponse.Answer(path: "household/member[2]/name", value: "Zoë \"Zo\" Ærø\n\ttab\\slash/ 李 🚀 \u{1}"),
        FormResponse.Answer(path: "years", value: "12.5", kind: .number),
        FormResponse.Answer(path: "consent", value: "", kind: .boolean),
        FormResponse.Answer(path: "empty", value: ""),
    ]

    func testWhatTheStoreWrites_readsBackTheSame() throws {
        let written = try JSONEncoder().encode(tricky)
        XCTAssertEqual(try StoredAnswers.decode(written), tricky)
        XCTAssertEqual(try StoredAnswers.decode(Data("[]".utf8)), [])
    }

    func testEscapesAndSpacing_readAsJSONDefinesThem() throws {
        let json = #" [ { "value" : "a\u00e9\ud83d\ude80\/b" , "path" : "x" } ] "#
        XCTAssertEqual(try StoredAnswers.decode(Data(json.utf8)), [FormResponse.Answer(path: "x", value: "aé🚀/b")])
    }

    func testAnotherShape_goesToJSONDecoder_whichSaysWhatIsWrong() {
        XCTAssertThrowsError(try StoredAnswers.decode(Data(#"[{"path":"x"}]"#.utf8)), "no value")
        XCTAssertThrowsError(try StoredAnswers.decode(Data(#"[{"path":"x","value":"1","kind":"date"}]"#.utf8)))
        XCTAssertThrowsError(try StoredAnswers.decode(Data(#"[{"path":"x","value":"\ud800"}]"#.utf8)), "a lone surrogate")
        XCTAssertThrowsError(try StoredAnswers.decode(Data(#"[{"path":"x","value":"1"}] trailing"#.utf8)))
        XCTAssertThrowsError(try StoredAnswers.decode(Data(#"[{"path":"x","value":"cut"#.utf8)))
    }

    func testAScanOfAnotherShape_leavesWhatWasScannedBefore() {
        var buffer = Array("kept".utf8)
        var spans = [StoredAnswers.Span(path: 0..<2, value: 2..<4, kind: nil)]
        let json = Data(#"[{"path":"a","value":"1"},{"path":"b"}]"#.utf8)
        XCTAssertFalse(json.withUnsafeBytes { StoredAnswers.scan($0, appendingTo: &buffer, &spans) })
        XCTAssertEqual(buffer, Array("kept".utf8))
        XCTAssertEqual(spans.count, 1)

        let good = Data(#"[{"path":"a","value":"\u00e9"}]"#.utf8)
        XCTAssertTrue(good.withUnsafeBytes { StoredAnswers.scan($0, appendingTo: &buffer, &spans) })
        XCTAssertEqual(spans.count, 2)
        XCTAssertEqual(buffer[spans[1].path], ArraySlice("a".utf8))
        XCTAssertEqual(buffer[spans[1].value], ArraySlice("é".utf8))
    }
}
