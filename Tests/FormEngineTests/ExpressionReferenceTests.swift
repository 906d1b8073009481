import XCTest

@testable import FormEngine

/// What a parsed expression tells its caller without evaluating it: the questions it reads and
/// whether its value may be cached.
final class ExpressionReferenceTests: XCTestCase {
    func testReferencesInOrderOfFirstAppearance() throws {
        let rows: [(expression: String, references: [String], line: UInt)] = [
            ("1 + 2", [], #line),
            ("${a}", ["a"], #line),
            ("${a} + ${b} * ${a}", ["a", "b"], #line),
            ("${b} > 0 and ${a} < ${b}", ["b", "a"], #line),
            ("jr:choice-name(${s}, '${s}')", ["s"], #line),
            ("concat('${x}', ${y})", ["x", "y"], #line),
            ("concat(\"${x} and ${z}\", ${y}, ${x})", ["x", "z", "y"], #line),
            ("'${ not a name }' = '${}' or '$x' = '${1a}'", [], #line),
            ("indexed-repeat(${q}, ${rep}, 1)", ["q", "rep"], #line),
            ("if(${a_b} = 'x', ${c.d}, ${e-f})", ["a_b", "c.d", "e-f"], #line),
            ("${über} + 1", ["über"], #line),
            ("/data/a + $b", [], #line),
        ]
        for row in rows {
            XCTAssertEqual(try FormExpression(row.expression).references, row.references, row.expression, line: row.line)
        }
    }

    func testUsesCurrentValue() throws {
        let rows: [(expression: String, usesCurrentValue: Bool, line: UInt)] = [
            (". > 5", true, #line),
            (". != ''", true, #line),
            ("regex(., '^[0-9]+$')", true, #line),
            ("string-length() > 3", true, #line),
            ("normalize-space()", true, #line),
            ("once(random())", true, #line),
            ("current()/../x", true, #line),
            ("${a} > 5", false, #line),
            ("string-length(${a})", false, #line),
            ("../x", false, #line),
            ("position(..)", false, #line),
            ("'.'", false, #line),
            ("1.5 + .5", false, #line),
        ]
        for row in rows {
            XCTAssertEqual(try FormExpression(row.expression).usesCurrentValue, row.usesCurrentValue, row.expression, line: row.line)
        }
    }

    func testIsVolatile() throws {
        let rows: [(expression: String, isVolatile: Bool, line: UInt)] = [
            ("now()", true, #line),
            ("today() - ${d}", true, #line),
            ("uuid()", true, #line),
            ("if(${a}, random(), 0)", true, #line),
            ("once(random())", true, #line),
            ("randomize(${r})", true, #line),
            ("randomize(${r}, 3)", false, #line),
            ("${a} + 1", false, #line),
            ("format-date(${d}, '%Y')", false, #line),
            ("'now()'", false, #line),
        ]
        for row in rows {
            XCTAssertEqual(try FormExpression(row.expression).isVolatile, row.isVolatile, row.expression, line: row.line)
        }
    }

    func testIdentityIsTheSource() throws {
        let expression = try FormExpression("${a} + 1")
        XCTAssertEqual(expression, try FormExpression("${a} + 1"))
        XCTAssertNotEqual(expression, try FormExpression("${a}+1"))
        XCTAssertEqual(Set([expression, try FormExpression("${a} + 1")]).count, 1)
        XCTAssertEqual(expression.description, "${a} + 1")
        XCTAssertEqual(expression.source, "${a} + 1")
    }
}
