import TwoWayBinding
import XCTest

/// The comparison an entry's binding makes on every change, against C text
/// as GTK hands it over.
final class FastPathsTests: XCTestCase {
    func testSameBytes_isExactEquality_ofAStringAndCText() {
        let cases: [(String, String, Bool)] = [
            ("", "", true),
            ("Ada", "Ada", true),
            ("Answer number 123", "Answer number 123", true),
            ("Ada", "Adam", false),
            ("Adam", "Ada", false),
            ("", "A", false),
            ("A", "", false),
            ("Grüße, 東京", "Grüße, 東京", true),
            ("Grüße", "Grusse", false),
            (String(repeating: "x", count: 100_000), String(repeating: "x", count: 100_000), true),
            (String(repeating: "x", count: 100_000), String(repeating: "x", count: 99_999), false),
        ]
        for (value, text, expected) in cases {
            text.withCString { pointer in
                XCTAssertEqual(sameBytes(value, pointer), expected, "\(value.prefix(20)) vs \(text.prefix(20))")
            }
        }
    }

    func testSameBytes_aValueWithANul_neverEqualsCText() {
        // C text ends at its first NUL; a value holding one cannot be it.
        "Ada".withCString { pointer in
            XCTAssertFalse(sameBytes("Ada\0", pointer))
            XCTAssertFalse(sameBytes("Ad\0a", pointer))
        }
        "Ad".withCString { pointer in
            XCTAssertFalse(sameBytes("Ad\0", pointer))
        }
    }
}
