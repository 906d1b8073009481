import XCTest

@testable import FormEngine

/// How long typical expressions of a form take, parsed once and evaluated many times.
final class ExpressionPerformanceTests: XCTestCase {
    func testEvaluatingTypicalExpressions() throws {
        let expressions = try [
            "${age} >= 18 and ${consent} = 'yes'",
            "regex(., '^[A-Z]{2}-[0-9]{4}$')",
            "selected(${symptoms}, 'fever') and count-selected(${symptoms}) > 1",
            "if(${d} < today(), concat('was ', format-date(${d}, '%e %b %Y')), 'future')",
            "round(sum(${price}) * 1.19, 2)",
        ].map(FormExpression.init)
        var context = ExpressionTestContext()
        context.currentValue = "AB-1234"
        context.answers = [
            "age": "42", "consent": "yes", "symptoms": "cough fever", "d": "2020-02-29",
            "price": ["1.5", "2.25", "", "10"],
        ]
        var results: [ExpressionValue] = []
        measure {
            for _ in 0..<2_000 {
                for expression in expressions { results.append(expression.evaluate(in: context)) }
            }
        }
        XCTAssertEqual(results.prefix(5), [
            .boolean(true), .boolean(true), .boolean(true), .string("was 29 Feb 2020"), .number(16.36),
        ])
    }
}
