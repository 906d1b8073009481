import XCTest

@testable import FormEngine

/// The grammar of XPath 1.0 §3 with XLSForm's `${name}`: everything valid parses, and what
/// does not gets a message naming the problem and where it is.
final class ExpressionParserTests: XCTestCase {
    func testValidXPathParses() {
        let expressions = [
            // Location paths, §2.
            ".", "..", "/", "/data/a", "../x", "./a", "a/b/c", "//a", "a//b", "/data//b",
            "@id", "a/@id", "@*", "*", "a:*", "a:b", "child::a", "child::*", "self::node()",
            "ancestor-or-self::node()", "following-sibling::x[1]", "parent::*", "attribute::id",
            "text()", "a/text()", "comment()", "processing-instruction()", "processing-instruction('x')",
            "/data/rep[2]/q", "/data/rep[position() = 1]/q", "a[1][2]", "../../x",
            "instance('c')/root/item[name = current()/../q]/label",
            // Filter expressions and variables, §3.2–3.3.
            "$x", "$ns:x", "(1)", "(${a} | ${b})[1]", "${a}[1]", "${rep}/child", "current()/..",
            "count(/data/rep)", "a | b | c",
            // Operators, §3.4–3.5, and where names and operators are told apart, §3.7.
            "-(-1)", "- - 1", "1--1", "1 - -1", "a-b", "a - b", "${a}-${b}", "${a} -1", "3-1",
            "x mod 2 = 0", "and", "and and and", "mod mod mod", "div div div", "or or or", "* * *", "2 * *",
            "1 != 2", "1 <= 2 and 2 >= 1 or 1 < 2 and 2 > 1", "a=b", "1+2", "'a'='b'",
            ".5 + 5.", "1.", "007",
            // Literals, §3.7.
            "\"double\"", "'single'", "'it''s'" .replacingOccurrences(of: "''", with: "\""),
            "'a \"quoted\" word'", "\"it's\"", "''",
            // Functions, including ODK's prefixed ones.
            "jr:choice-name(${s}, '${s}')", "jr:itext('x')", "digest('x', 'sha-256', 'HEX')",
            "concat()", "concat(1, 2, 3, 4, 5, 6, 7, 8)", "string-length()", "normalize-space()",
            "string-length(.) > 3 and . != ''", "indexed-repeat(${a}, ${r}, 1, ${s}, 2)",
            "weighted-checklist(1, 2, 3, 4)", "if(${a} = 'yes', ${b} * 2, 0)",
            "   1   ", "\n1\n+\t2\r",
        ]
        for expression in expressions {
            XCTAssertNoThrow(try FormExpression(expression), expression)
        }
    }

    /// A function the engine does not evaluate refuses the expression, so a
    /// form calling one is refused rather than run with a blank.
    func testFunctionsTheEngineCannotRunAreRefused() {
        for expression in ["odk:anything(1, 2, 3)", "id('x')", "property('version')", "name(.)", "namespace-uri(.)"] {
            XCTAssertThrowsError(try FormExpression(expression), expression) { error in
                XCTAssertTrue("\(error)".contains("cannot run"), "\(error)")
            }
        }
    }

    func testSyntaxErrors() {
        let rows: [(expression: String, message: String, offset: Int, line: UInt)] = [
            ("", "unexpected end of expression at 0", 0, #line),
            ("   ", "unexpected end of expression at 3", 3, #line),
            ("(1 + 2", "unexpected end of expression at 6", 6, #line),
            ("1 + 2)", "unexpected ')' at 5", 5, #line),
            ("((1)", "unexpected end of expression at 4", 4, #line),
            ("1 +", "unexpected end of expression at 3", 3, #line),
            ("1 + * 2", "unexpected '2' at 6", 6, #line),
            ("and or", "unexpected end of expression at 6", 6, #line),
            ("1 2", "unexpected '2' at 2", 2, #line),
            ("1 = = 2", "unexpected '=' at 4", 4, #line),
            ("1e3", "unexpected 'e3' at 1", 1, #line),
            ("#", "unexpected '#' at 0", 0, #line),
            ("!a", "unexpected '!' at 0", 0, #line),
            ("a:", "unexpected ':' at 1", 1, #line),
            ("a[1", "unexpected end of expression at 3", 3, #line),
            ("a[]", "unexpected ']' at 2", 2, #line),
            ("f(1,)", "unknown function f()", 0, #line),
            ("concat(1,)", "unexpected ')' at 9", 9, #line),
            ("concat(1 2)", "unexpected '2' at 9", 9, #line),
            ("'abc", "unterminated string at 0", 0, #line),
            ("concat(\"a\", \"b)", "unterminated string at 12", 12, #line),
            ("${}", "empty ${} at 0", 0, #line),
            ("1 + ${1a}", "invalid question name '1a' in ${} at 4", 4, #line),
            ("${a b}", "invalid question name 'a b' in ${} at 0", 0, #line),
            ("${a", "unterminated ${ at 0", 0, #line),
            ("$", "expected a variable name after '$' at 0", 0, #line),
            ("foo::bar", "unknown axis foo:: at 0", 0, #line),
            ("child::", "unexpected end of expression at 7", 7, #line),
            ("regex(., '[')", "invalid regular expression '[' in regex()", 0, #line),
        ]
        for row in rows {
            XCTAssertThrowsError(try FormExpression(row.expression), row.expression, line: row.line) { error in
                XCTAssertEqual(error as? ExpressionError, ExpressionError(row.message, at: row.offset), line: row.line)
            }
        }
    }

    func testFunctionNamesAndArgumentCounts() {
        let rows: [(expression: String, message: String, offset: Int, line: UInt)] = [
            ("foo(1)", "unknown function foo()", 0, #line),
            ("1 + lower-case('A')", "unknown function lower-case()", 4, #line),
            ("substr('a')", "expected 2 or 3 arguments to substr()", 0, #line),
            ("substr('a', 1, 2, 3)", "expected 2 or 3 arguments to substr()", 0, #line),
            ("not()", "expected 1 argument to not()", 0, #line),
            ("today(1)", "expected no arguments to today()", 0, #line),
            ("if(1, 2)", "expected 3 arguments to if()", 0, #line),
            ("round()", "expected 1 or 2 arguments to round()", 0, #line),
            ("join()", "expected at least 1 argument to join()", 0, #line),
            ("max()", "expected at least 1 argument to max()", 0, #line),
            ("checklist(1)", "expected at least 2 arguments to checklist()", 0, #line),
            ("indexed-repeat(${a}, ${b})", "expected 3, 5, 7, 9 or 11 arguments to indexed-repeat()", 0, #line),
            ("indexed-repeat(${a}, ${b}, 1, ${c})", "expected 3, 5, 7, 9 or 11 arguments to indexed-repeat()", 0, #line),
            ("weighted-checklist(1, 2, 3)", "expected an even number of arguments, at least 2, to weighted-checklist()", 0, #line),
            ("jr:choice-name('a')", "expected 2 arguments to jr:choice-name()", 0, #line),
            ("format-date(today())", "expected 2 arguments to format-date()", 0, #line),
        ]
        for row in rows {
            XCTAssertThrowsError(try FormExpression(row.expression), row.expression, line: row.line) { error in
                XCTAssertEqual(error as? ExpressionError, ExpressionError(row.message, at: row.offset), line: row.line)
            }
        }
    }

    func testDeepNestingIsRefusedNotOverflowed() {
        let deep = String(repeating: "(", count: 300) + "1" + String(repeating: ")", count: 300)
        XCTAssertThrowsError(try FormExpression(deep)) { error in
            XCTAssertEqual(error as? ExpressionError, ExpressionError("expression nested too deeply at 200", at: 200))
        }
        let fine = String(repeating: "(", count: 150) + "1" + String(repeating: ")", count: 150)
        XCTAssertEqual(try FormExpression(fine).evaluate(in: ExpressionTestContext()), .number(1))
        XCTAssertEqual(try FormExpression(String(repeating: "-", count: 1001) + "2").evaluate(in: ExpressionTestContext()), .number(-2))
    }

    func testAMillionTermSum_isRefusedBeforeItIsDeepEnoughToOverflow() throws {
        // No parenthesis, but a tree a million levels deep.
        let flat = Array(repeating: "1", count: 1_000_000).joined(separator: "+")
        XCTAssertThrowsError(try FormExpression(flat)) { error in
            XCTAssertTrue("\(error)".hasPrefix("expression nested too deeply at "), "\(error)")
            XCTAssertTrue("\(error)".contains("more than 1000 levels"), "\(error)")
        }
    }

    func testOperatorChains_countEveryLevel_andOnePastTheLimitIsRefused() throws {
        for separator in [" and ", " or ", " = ", " < ", " * ", " | "] {
            let chain = Array(repeating: "1", count: FormLimits.expressionDepth + 1).joined(separator: separator)
            XCTAssertThrowsError(try FormExpression(chain), separator)
        }
        // Levels add up across kinds: calls around a long sum.
        let wrapped = String(repeating: "abs(", count: 100) + Array(repeating: "1", count: 950).joined(separator: "+") + String(repeating: ")", count: 100)
        XCTAssertThrowsError(try FormExpression(wrapped))
        // The longest sum the limit allows is evaluated, on this thread's stack, and freed.
        let longest = Array(repeating: "1", count: FormLimits.expressionDepth).joined(separator: "+")
        XCTAssertEqual(try FormExpression(longest).evaluate(in: ExpressionTestContext()), .number(Double(FormLimits.expressionDepth)))
    }

    func testErrorDescriptionIsItsMessage() {
        XCTAssertEqual(ExpressionError("unknown function foo()", at: 0).description, "unknown function foo()")
    }
}
