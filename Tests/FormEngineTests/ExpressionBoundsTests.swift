import XCTest

@testable import FormEngine

/// A constraint's range, read so that a spin button can offer it.
final class ExpressionBoundsTests: XCTestCase {
    private func bounds(_ source: String, whole: Bool = true) throws -> [Double?]? {
        try FormExpression(source).boundsOfCurrentValue(wholeNumbers: whole).map { [$0.lower, $0.upper] }
    }

    func testConjunctionsOfComparisonsWithTheCurrentValue() throws {
        XCTAssertEqual(try bounds(". >= 0 and . <= 120"), [0, 120])
        XCTAssertEqual(try bounds("18 <= . and 65 >= ."), [18, 65])
        XCTAssertEqual(try bounds(". >= -5.5 and . <= 5.5", whole: false), [-5.5, 5.5])
        XCTAssertEqual(try bounds(". >= 1"), [1, nil])
        XCTAssertEqual(try bounds(". <= 10"), [nil, 10])
        // The tighter of two bounds on one side holds.
        XCTAssertEqual(try bounds(". >= 0 and . >= 3 and . <= 9 and . <= 12"), [3, 9])
    }

    func testStrictBoundsOnlyForWholeNumbers() throws {
        XCTAssertEqual(try bounds(". > 0 and . < 10"), [1, 9])
        XCTAssertEqual(try bounds(". > 0.5 and . < 9.5"), [1, 9])
        XCTAssertNil(try bounds(". > 0 and . < 10", whole: false))
    }

    func testAnyOtherShapeIsLeftToTheConstraint() throws {
        XCTAssertNil(try bounds(". >= 0 or . <= 10"), "a disjunction is no interval")
        XCTAssertNil(try bounds(". >= ${minimum}"), "a bound from another answer changes")
        XCTAssertNil(try bounds(". != 3"))
        XCTAssertNil(try bounds("regex(., '^[0-9]+$')"))
        XCTAssertNil(try bounds(". >= 0 and regex(., '^[0-9]+$')"), "a part that is not a bound")
        XCTAssertNil(try bounds(". >= 10 and . <= 1"), "an empty interval")
        XCTAssertNil(try bounds(". + 1 >= 3"))
    }
}
