import XCTest

@testable import FormEngine

/// XPath 1.0's type conversions and operators, as ODK extends them. Each group names the
/// section of the specification its rows come from; where ODK and XPath differ, ODK wins and
/// the row says so.
final class ExpressionConversionTests: XCTestCase {
    /// XPath 1.0 §4.2, `string()` of numbers and booleans; §5.1 a node-set's first node.
    func testStringConversion() {
        check([
            ExpressionRow("string(1)", "1"),
            ExpressionRow("string(1.0)", "1"),
            ExpressionRow("string(100)", "100"),
            ExpressionRow("string(0.5)", "0.5"),
            ExpressionRow("string(-0.5)", "-0.5"),
            ExpressionRow("string(-12.5)", "-12.5"),
            ExpressionRow("string(-0)", "0"),
            ExpressionRow("string(0 div 0)", "NaN"),
            ExpressionRow("string(1 div 0)", "Infinity"),
            ExpressionRow("string(-1 div 0)", "-Infinity"),
            ExpressionRow("string(123456789012)", "123456789012"),
            ExpressionRow("string(1000000 * 1000000 * 1000000 * 1000)", "1000000000000000000000"),
            ExpressionRow("string(1 div 10000000)", "0.0000001"),
            ExpressionRow("string(0.1 + 0.2)", "0.30000000000000004"),
            ExpressionRow("string(1 div 3)", "0.3333333333333333"),
            ExpressionRow("string(2.50)", "2.5"),
            ExpressionRow("string(true())", "true"),
            ExpressionRow("string(false())", "false"),
            ExpressionRow("string(${a})", ["a": "x"], "x"),
            ExpressionRow("string(${r})", ["r": ["x", "y"]], "x"),
            ExpressionRow("string(${missing})", ""),
            ExpressionRow("concat('n=', 3 * 2)", "n=6"),
            ExpressionRow("concat(7 div 2, '')", "3.5"),
        ])
    }

    /// XPath 1.0 §4.4, `number()`: whitespace around, one `-`, digits with one point; no `+`,
    /// no exponent, nothing else.
    func testNumberConversion() {
        check([
            ExpressionRow("number('12')", 12.0),
            ExpressionRow("number(' 12 ')", 12.0),
            ExpressionRow("number('\t12\n')", 12.0),
            ExpressionRow("number('-3.5')", -3.5),
            ExpressionRow("number('.5')", 0.5),
            ExpressionRow("number('5.')", 5.0),
            ExpressionRow("number('007')", 7.0),
            ExpressionRow("number('+1')", .nan),
            ExpressionRow("number('1e3')", .nan),
            ExpressionRow("number('abc')", .nan),
            ExpressionRow("number('')", .nan),
            ExpressionRow("number('- 1')", .nan),
            ExpressionRow("number('--1')", .nan),
            ExpressionRow("number('1.2.3')", .nan),
            ExpressionRow("number('Infinity')", .nan),
            ExpressionRow("number('0x10')", .nan),
            // NB: ODK Collect reads a decimal comma as a point; the specification does not.
            ExpressionRow("number('1,5')", .nan),
            ExpressionRow("number(true())", 1.0),
            ExpressionRow("number(false())", 0.0),
            ExpressionRow("number(${a})", ["a": ""], .nan),
            ExpressionRow("number(${a})", ["a": "7"], 7.0),
            ExpressionRow("number(${missing})", .nan),
            ExpressionRow("number(${r})", ["r": ["4", "5"]], 4.0),
        ])
    }

    /// ODK XForms, `number()`: date and dateTime strings become days since 1970-01-01 UTC.
    func testNumberConversionOfDates() {
        check([
            ExpressionRow("number('1970-01-01')", 0.0),
            ExpressionRow("number('1969-12-31')", -1.0),
            ExpressionRow("number('2020-01-02')", 18263.0),
            ExpressionRow("number(' 2020-01-02 ')", 18263.0),
            ExpressionRow("number('2020-01-01T12:00:00Z')", 18262.5),
            ExpressionRow("number('2020-01-01T12:00:00.000+02:00')", .number(18262 + 10.0 / 24)),
            ExpressionRow("number('2020-01-01T06:00:00-06:00')", 18262.5),
            ExpressionRow("number('2020-02-30')", .nan),
            ExpressionRow("number('2020-1-1')", .nan),
            ExpressionRow("number('2020-01-01T25:00:00Z')", .nan),
            ExpressionRow("number(${d})", ["d": "2000-01-01"], 10957.0),
        ])
    }

    /// XPath 1.0 §4.3, `boolean()`.
    func testBooleanConversion() {
        check([
            ExpressionRow("boolean('')", false),
            ExpressionRow("boolean('0')", true),
            // ODK XForms: a stored "false" is a non-empty string, so it is true.
            ExpressionRow("boolean('false')", true),
            ExpressionRow("boolean(0)", false),
            ExpressionRow("boolean(-0)", false),
            ExpressionRow("boolean(0 div 0)", false),
            ExpressionRow("boolean(1)", true),
            ExpressionRow("boolean(-1)", true),
            ExpressionRow("boolean(${missing})", false),
            // ODK Collect reads one node by its value: an unanswered question is false. (XPath
            // would call any non-empty node-set true.)
            ExpressionRow("boolean(${a})", ["a": ""], false),
            ExpressionRow("boolean(${a})", ["a": "x"], true),
            ExpressionRow("boolean(${r})", ["r": ["", ""]], true),
            ExpressionRow("not('')", true),
            ExpressionRow("not(${a})", ["a": ""], true),
        ])
    }

    /// XPath 1.0 §3.4, `=` and `!=`: booleans first, then numbers, then strings; node-sets
    /// compare true if any node does.
    func testEquality() {
        check([
            ExpressionRow("'1' = 1", true),
            ExpressionRow("'1.0' = 1", true),
            ExpressionRow("'1.0' = '1'", false),
            ExpressionRow("'a' = 'a'", true),
            ExpressionRow("'a' != 'b'", true),
            ExpressionRow("'A' = 'a'", false),
            ExpressionRow("true() = 'x'", true),
            ExpressionRow("false() = ''", true),
            ExpressionRow("true() = 1", true),
            ExpressionRow("0 = false()", true),
            ExpressionRow("true() = 'false'", true),
            ExpressionRow("${a} = ''", ["a": ""], true),
            ExpressionRow("${a} != ''", ["a": ""], false),
            ExpressionRow("${a} = 'yes'", ["a": "yes"], true),
            ExpressionRow("${a} = 1", ["a": "1.0"], true),
            // JavaRosa: an empty node-set reads as '' (XPath 1.0: false either way).
            ExpressionRow("${missing} = ''", true),
            ExpressionRow("${missing} != ''", false),
            ExpressionRow("${missing} != 0", true),
            ExpressionRow("${missing} = 0", false),
            ExpressionRow("${missing} < 1", false),
            ExpressionRow("${missing} != ${r}", ["r": ["x"]], true),
            ExpressionRow("${r} = 'y'", ["r": ["x", "y"]], true),
            ExpressionRow("${r} != 'x'", ["r": ["x", "y"]], true),
            ExpressionRow("${r} != 'x'", ["r": ["x", "x"]], false),
            ExpressionRow("${r} = 2", ["r": ["1", "2"]], true),
            ExpressionRow("${r} = ${s}", ["r": ["a", "b"], "s": ["b", "c"]], true),
            ExpressionRow("${r} = ${s}", ["r": ["a"], "s": ["b"]], false),
            ExpressionRow("${r} != ${s}", ["r": ["a"], "s": ["a"]], false),
            // ODK Collect: the lone blank node is false (XPath: a non-empty node-set is true).
            ExpressionRow("${a} = true()", ["a": ""], false),
            ExpressionRow("${a} = false()", ["a": ""], true),
            ExpressionRow("${missing} = false()", true),
        ])
    }

    /// IEEE 754 as XPath 1.0 §3.4 and §4.4 ask: NaN is unequal to everything, itself included.
    func testNaNComparisons() {
        check([
            ExpressionRow("0 div 0 = 0 div 0", false),
            ExpressionRow("0 div 0 != 0 div 0", true),
            ExpressionRow("0 div 0 < 1", false),
            ExpressionRow("0 div 0 >= 1", false),
            ExpressionRow("${age} > 18", ["age": ""], false),
            ExpressionRow("${age} < 18", ["age": ""], false),
            ExpressionRow("${age} >= 0", ["age": ""], false),
            ExpressionRow("${age} = 5", ["age": ""], false),
            ExpressionRow("${age} != 5", ["age": ""], true),
            ExpressionRow("'abc' > 0", false),
        ])
    }

    /// XPath 1.0 §3.4, `<`, `<=`, `>`, `>=`: always numbers, never strings.
    func testRelationalOperators() {
        check([
            ExpressionRow("'10' > '9'", true),
            ExpressionRow("'a' < 'b'", false),
            ExpressionRow("true() > false()", true),
            ExpressionRow("2 <= 2", true),
            ExpressionRow("2 < 2", false),
            ExpressionRow("${r} > 5", ["r": ["1", "7"]], true),
            ExpressionRow("${r} < 5", ["r": ["1", "7"]], true),
            ExpressionRow("${r} > 9", ["r": ["1", "7"]], false),
            ExpressionRow("${age} >= 18", ["age": "18"], true),
            ExpressionRow("${age} > 18", ["age": " 19 "], true),
            // Left to right: (1 < 2) is true, and true < 3 compares 1 < 3.
            ExpressionRow("1 < 2 < 3", true),
            ExpressionRow("3 > 2 > 1", false),
        ])
    }

    /// ODK XForms, the `number()` extension applied to operators: dates compare and subtract as days.
    func testDateComparisonsAndArithmetic() {
        check([
            ExpressionRow("'2020-01-02' > '2020-01-01'", true),
            ExpressionRow("'2020-01-01' < '2021-01-01'", true),
            ExpressionRow("${d} < today()", ["d": "2020-01-01"], true),
            ExpressionRow("${d} >= '2020-01-01'", ["d": "2020-06-01"], true),
            ExpressionRow("today() > date('2000-01-01')", true),
            ExpressionRow("date('2020-01-01') < date('2020-01-02')", true),
            ExpressionRow("date('2020-01-01') = '2020-01-01'", true),
            ExpressionRow("${d} = date('2020-01-01')", ["d": "2020-01-01"], true),
            ExpressionRow("date('2020-01-02') - date('2020-01-01')", 1.0),
            ExpressionRow("'2020-01-01' + 1", 18263.0),
            ExpressionRow("date('2020-01-01') + 1", 18263.0),
            ExpressionRow("now() > today()", true),
            ExpressionRow("today() - date('2023-01-01')", 317.0),
            ExpressionRow("int((today() - date(${dob})) div 365.25)", ["dob": "2000-01-01"], 23.0),
        ])
    }

    /// XPath 1.0 §3.5, arithmetic in IEEE 754 doubles; `mod` truncates like Java's `%`.
    func testArithmetic() {
        check([
            ExpressionRow("1 div 0", .infinity),
            ExpressionRow("-1 div 0", .minusInfinity),
            ExpressionRow("0 div 0", .nan),
            ExpressionRow("7 div 2", 3.5),
            ExpressionRow("5 mod 2", 1.0),
            ExpressionRow("5 mod -2", 1.0),
            ExpressionRow("-5 mod 2", -1.0),
            ExpressionRow("-5 mod -2", -1.0),
            ExpressionRow("5.5 mod 2", 1.5),
            ExpressionRow("1 mod 0", .nan),
            ExpressionRow("2 * 3", 6.0),
            ExpressionRow("2 + 3 * 4", 14.0),
            ExpressionRow("(2 + 3) * 4", 20.0),
            ExpressionRow("10 - 4 - 3", 3.0),
            ExpressionRow("12 div 2 div 3", 2.0),
            ExpressionRow("2 - -2", 4.0),
            ExpressionRow("--2", 2.0),
            ExpressionRow("-${a}", ["a": "3"], -3.0),
            ExpressionRow("- '3'", -3.0),
            ExpressionRow("1 + ''", .nan),
            ExpressionRow("'a' + 1", .nan),
            ExpressionRow("true() + 1", 2.0),
            ExpressionRow("${a} + ${b}", ["a": "1.5", "b": "2"], 3.5),
            ExpressionRow("${a} + ${b}", ["a": "1", "b": ""], .nan),
            ExpressionRow("${a} * 2", ["a": ["3", "4"]], 6.0),
            ExpressionRow("string(0.1 * 3)", "0.30000000000000004"),
        ])
    }

    /// XPath 1.0 §3.4, `or` and `and`, weaker than comparisons, `and` binding tighter.
    func testLogic() {
        check([
            ExpressionRow("1 = 1 and 2 = 2", true),
            ExpressionRow("1 = 2 or 2 = 2", true),
            ExpressionRow("true() or false() and false()", true),
            ExpressionRow("(true() or false()) and false()", false),
            ExpressionRow("${a} = 'yes' and ${b} > 3", ["a": "yes", "b": "4"], true),
            ExpressionRow("${a} = 'yes' or ${b} > 3", ["a": "no", "b": ""], false),
            ExpressionRow("'' or 0", false),
            ExpressionRow("'x' and 1", true),
        ])
    }
}
