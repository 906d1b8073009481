import FormEngine
import Foundation
import XCTest

/// The one JSON writer: `--describe-form`'s output and the answers the
/// outbox sends are read by other programs, so every string must come back
/// exactly as it went in.
final class JSONValueTests: XCTestCase {
    private func written(_ text: String) -> String {
        JSONValue.string(text).text
    }

    func testPlainTextGoesInWholeAndSpecialCharactersAreEscaped() {
        XCTAssertEqual(written("Ada Lovelace"), "\"Ada Lovelace\"")
        XCTAssertEqual(written("Zoë 👩‍🔬 日本"), "\"Zoë 👩‍🔬 日本\"")
        XCTAssertEqual(written("say \"hi\" \\ bye"), #""say \"hi\" \\ bye""#)
        XCTAssertEqual(written("line\nnext\ttab\rcr"), #""line\nnext\ttab\rcr""#)
        XCTAssertEqual(written("bell\u{07} del\u{7F} c1\u{85} ls\u{2028} ps\u{2029}"),
                       #""bell\u0007 del\u007f c1\u0085 ls\u2028 ps\u2029""#)
        // Near misses of the escaped sequences stay as they are.
        XCTAssertEqual(written("\u{A0}\u{C2}\u{2027}\u{202A}"), "\"\u{A0}\u{C2}\u{2027}\u{202A}\"")
    }

    func testEveryStringComesBackFromAJSONReaderAsItWent() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Unicode.Scalar] = ["a", "Z", " ", "\"", "\\", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{80}",
                                          "\u{85}", "\u{9F}", "\u{A0}", "é", "\u{2028}", "\u{2029}", "\u{202E}", "😀"]
        for _ in 0..<500 {
            let length = Int.random(in: 0..<12, using: &generator)
            var text = String.UnicodeScalarView()
            for _ in 0..<length { text.append(alphabet.randomElement(using: &generator)!) }
            let original = String(text)
            let data = Data(JSONValue.array([.string(original)]).text.utf8)
            let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String])
            XCTAssertEqual(parsed.first?.unicodeScalars.elementsEqual(original.unicodeScalars), true,
                           "\(original.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
