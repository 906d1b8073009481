import XCTest

@testable import FormEngine

/// The function library: XPath 1.0 §4 and the ODK XForms specification's function table
/// ("XPath Functions" in `_sections/30-bindings.md`). Where ODK and XPath differ, ODK wins and
/// the row says so.
final class ExpressionFunctionTests: XCTestCase {
    /// ODK XForms, string functions; XPath 1.0 §4.2 for those it takes as they are.
    func testStringFunctions() {
        check([
            ExpressionRow("concat('a', 'b', 'c')", "abc"),
            // ODK: one argument is enough, and every node of a node-set counts.
            ExpressionRow("concat('a')", "a"),
            ExpressionRow("concat(${r})", ["r": ["x", "y"]], "xy"),
            ExpressionRow("concat(${r}, '-', 1)", ["r": ["x", "y"]], "xy-1"),
            ExpressionRow("concat(1.0, true())", "1true"),
            ExpressionRow("concat(${a}, ' ', ${b})", ["a": "Ada", "b": "Lovelace"], "Ada Lovelace"),
            ExpressionRow("join(', ', ${r})", ["r": ["x", "y"]], "x, y"),
            ExpressionRow("join('-', 'a', 'b', 'c')", "a-b-c"),
            ExpressionRow("join(' ', ${missing})", ""),
            // ODK: substr() is 0-based, from start to end (exclusive).
            ExpressionRow("substr('hello', 1, 3)", "el"),
            ExpressionRow("substr('hello', 1)", "ello"),
            ExpressionRow("substr('hello', 0, 1)", "h"),
            ExpressionRow("substr('hello', -3)", "llo"),
            ExpressionRow("substr('hello', 3, 1)", ""),
            ExpressionRow("substr('hello', 10)", ""),
            ExpressionRow("substr('hello', 0, 10)", "hello"),
            ExpressionRow("substr(${a}, 0, 4)", ["a": "2024-05-01"], "2024"),
            // XPath 1.0 §4.2: substring() is 1-based and rounds its positions.
            ExpressionRow("substring('12345', 2, 3)", "234"),
            ExpressionRow("substring('12345', 2)", "2345"),
            ExpressionRow("substring('12345', 1.5, 2.6)", "234"),
            ExpressionRow("substring('12345', 0, 3)", "12"),
            ExpressionRow("substring('12345', 0 div 0, 3)", ""),
            ExpressionRow("substring('12345', 1, 0 div 0)", ""),
            ExpressionRow("substring('12345', -42, 1 div 0)", "12345"),
            ExpressionRow("substring('12345', -1 div 0, 1 div 0)", ""),
            ExpressionRow("substring-before('1999/04/01', '/')", "1999"),
            ExpressionRow("substring-after('1999/04/01', '/')", "04/01"),
            ExpressionRow("substring-after('1999/04/01', '19')", "99/04/01"),
            ExpressionRow("substring-before('abc', 'x')", ""),
            ExpressionRow("substring-after('abc', 'x')", ""),
            ExpressionRow("substring-after('abc', '')", "abc"),
            ExpressionRow("substring-before('abc', '')", ""),
            ExpressionRow("translate('bar', 'abc', 'ABC')", "BAr"),
            ExpressionRow("translate('--aaa--', 'abc-', 'ABC')", "AAA"),
            ExpressionRow("string-length('hello')", 5.0),
            ExpressionRow("string-length('')", 0.0),
            ExpressionRow("string-length(${a})", ["a": "äöü"], 3.0),
            ExpressionRow("string-length(${missing})", 0.0),
            ExpressionRow("string-length(12.50)", 4.0),
            ExpressionRow("normalize-space('  a   b  ')", "a b"),
            ExpressionRow("normalize-space('\ta\n\nb ')", "a b"),
            ExpressionRow("contains('abc', 'b')", true),
            ExpressionRow("contains('abc', '')", true),
            ExpressionRow("contains('', 'a')", false),
            ExpressionRow("contains(${a}, 'x')", ["a": "box"], true),
            ExpressionRow("starts-with('abc', 'ab')", true),
            ExpressionRow("starts-with('abc', 'b')", false),
            ExpressionRow("ends-with('abc', 'bc')", true),
            ExpressionRow("ends-with('abc', 'b')", false),
            ExpressionRow("base64-decode('aGVsbG8=')", "hello"),
            ExpressionRow("string-length(uuid())", 36.0),
            ExpressionRow("string-length(uuid(8))", 8.0),
            ExpressionRow("string-length(uuid(pow(10, 300)))", 10_000.0),
            ExpressionRow("string-length(uuid(-1))", 0.0),
        ])
    }

    /// ODK XForms, boolean functions.
    func testBooleanFunctions() {
        check([
            ExpressionRow("if(true(), 'a', 'b')", "a"),
            ExpressionRow("if('', 'a', 'b')", "b"),
            ExpressionRow("if(${a} = 'yes', 1, 0)", ["a": "yes"], 1.0),
            ExpressionRow("if(${a}, 'y', 'n')", ["a": ""], "n"),
            ExpressionRow("coalesce('', 'x')", "x"),
            ExpressionRow("coalesce('a', 'x')", "a"),
            ExpressionRow("coalesce('', '')", ""),
            ExpressionRow("coalesce(0 div 0, 5)", 5.0),
            ExpressionRow("string(coalesce(${a}, ${b}))", ["a": "", "b": "b"], "b"),
            ExpressionRow("string(coalesce(${a}, ${b}))", ["a": "a", "b": "b"], "a"),
            ExpressionRow("true()", true),
            ExpressionRow("false()", false),
            // ODK: only "true" and "1" (XForms also takes "TRUE", ODK Collect ignores case).
            ExpressionRow("boolean-from-string('true')", true),
            ExpressionRow("boolean-from-string('1')", true),
            ExpressionRow("boolean-from-string('TRUE')", true),
            ExpressionRow("boolean-from-string('yes')", false),
            ExpressionRow("boolean-from-string('0')", false),
            ExpressionRow("boolean-from-string('false')", false),
            ExpressionRow("boolean-from-string('')", false),
            ExpressionRow("not(true())", false),
            ExpressionRow("not(0)", true),
            ExpressionRow("not('false')", false),
            // JavaRosa: the whole text must match (Java's Pattern.matches; Enketo tests anywhere).
            ExpressionRow("regex('abc', '^a')", false),
            ExpressionRow("regex('abc', 'b')", false),
            ExpressionRow("regex('abc', 'a.*')", true),
            ExpressionRow("regex('abc', '^abc$')", true),
            ExpressionRow("regex('abc', 'a|abc')", true),
            ExpressionRow("regex('abc\n', 'abc$')", false),
            ExpressionRow("regex('ABC', '(?i)abc')", true),
            ExpressionRow("regex('abc', '^b')", false),
            ExpressionRow("regex('12345', '^[0-9]{5}$')", true),
            // Catastrophic backtracking is abandoned after FormLimits.regexProgressReports: no match.
            ExpressionRow("regex('\(String(repeating: "a", count: 40))b', '^(a+)+$')", false),
            ExpressionRow("regex('1234', '^[0-9]{5}$')", false),
            ExpressionRow("regex('', '^$')", true),
            ExpressionRow("regex(${a}, '^\\d+$')", ["a": "42"], true),
            ExpressionRow("regex(${a}, '^[A-Z]{2}-\\d{3}$')", ["a": "AB-123"], true),
            ExpressionRow("regex('abc', ${p})", ["p": ".c$"], false),
            ExpressionRow("regex('abc', ${p})", ["p": "..c$"], true),
            ExpressionRow("regex('abc', ${p})", ["p": "["], false),
            // ODK: checklist() counts answers that are true or a number above 0.
            ExpressionRow("checklist(2, -1, 1, 0, 1)", true),
            ExpressionRow("checklist(1, 1, 1, 1)", false),
            ExpressionRow("checklist(-1, 1, ${r})", ["r": ["1", "0"]], true),
            ExpressionRow("checklist(0, 0, true(), false())", false),
            ExpressionRow("weighted-checklist(3, 5, 1, 2, 1, 2)", true),
            ExpressionRow("weighted-checklist(5, 10, 1, 2, 0, 4)", false),
        ])
    }

    /// ODK XForms, number functions; XPath 1.0 §4.4; XPath 3.0 for the math functions.
    func testNumberFunctions() {
        check([
            ExpressionRow("int(-3.7)", -3.0),
            ExpressionRow("int(3.7)", 3.0),
            ExpressionRow("int('12.9')", 12.0),
            ExpressionRow("int('')", .nan),
            ExpressionRow("int(1 div 0)", .infinity),
            // Halves round up, as XPath 1.0 and JavaRosa round them (Enketo: away from zero).
            ExpressionRow("round(2.5)", 3.0),
            ExpressionRow("round(-2.5)", -2.0),
            ExpressionRow("round(-1.5)", -1.0),
            ExpressionRow("round(-1.51)", -2.0),
            ExpressionRow("round(-2.6)", -3.0),
            ExpressionRow("round(2.4)", 2.0),
            ExpressionRow("round(-2.4)", -2.0),
            ExpressionRow("round(-1.005, 2)", -1.0),
            ExpressionRow("round(-1.0051, 2)", -1.01),
            ExpressionRow("string(round(-0.5))", "0"),
            // JavaRosa: more than 30 places either way is NaN.
            ExpressionRow("round(1.25, 30)", 1.25),
            ExpressionRow("round(1.25, 31)", .nan),
            ExpressionRow("round(1.25, -31)", .nan),
            ExpressionRow("round(0.5)", 1.0),
            ExpressionRow("round(1.2345, 2)", 1.23),
            ExpressionRow("round(1.005, 2)", 1.01),
            ExpressionRow("round(9.995, 2)", 10.0),
            ExpressionRow("round(123.456, 0)", 123.0),
            ExpressionRow("round(1234.5, -2)", 1200.0),
            ExpressionRow("round(1250, -2)", 1300.0),
            ExpressionRow("round(-1250, -2)", -1200.0),
            ExpressionRow("round(-1251, -2)", -1300.0),
            ExpressionRow("round(40, -2)", 0.0),
            ExpressionRow("round(3.14159, '')", 3.0),
            ExpressionRow("round(0 div 0)", .nan),
            ExpressionRow("round(1 div 0)", .infinity),
            ExpressionRow("string(round(-0.4))", "0"),
            ExpressionRow("floor(2.7)", 2.0),
            ExpressionRow("floor(-2.2)", -3.0),
            ExpressionRow("ceiling(2.2)", 3.0),
            ExpressionRow("ceiling(-2.7)", -2.0),
            ExpressionRow("abs(-3)", 3.0),
            ExpressionRow("pow(2, 10)", 1024.0),
            ExpressionRow("pow(2, 0.5)", .number(2.0.squareRoot())),
            ExpressionRow("sqrt(16)", 4.0),
            ExpressionRow("sqrt(-1)", .nan),
            ExpressionRow("exp(0)", 1.0),
            ExpressionRow("log(1)", 0.0),
            ExpressionRow("log10(1000)", 3.0),
            ExpressionRow("exp10(2)", 100.0),
            ExpressionRow("pi()", .number(Double.pi)),
            ExpressionRow("sin(0)", 0.0),
            ExpressionRow("cos(0)", 1.0),
            ExpressionRow("tan(0)", 0.0),
            ExpressionRow("asin(1)", .number(Double.pi / 2)),
            ExpressionRow("acos(1)", 0.0),
            ExpressionRow("atan(0)", 0.0),
            ExpressionRow("atan2(1, 1)", .number(Double.pi / 4)),
            ExpressionRow("min(1, 2, 3)", 1.0),
            ExpressionRow("max(1, 2, 3)", 3.0),
            ExpressionRow("max(-5)", -5.0),
            ExpressionRow("max(${r})", ["r": ["3", "10", "2"]], 10.0),
            ExpressionRow("min(${r})", ["r": ["3", "10", "2"]], 2.0),
            ExpressionRow("max(${r}, 20)", ["r": ["3", "10", "2"]], 20.0),
            // ODK Collect: blank answers are left out of min(), max() and sum().
            ExpressionRow("max(${r})", ["r": ["", "4"]], 4.0),
            ExpressionRow("max(${missing})", .nan),
            ExpressionRow("sum(${r})", ["r": ["1", "2", "3.5"]], 6.5),
            ExpressionRow("sum(${r})", ["r": ["1", ""]], 1.0),
            ExpressionRow("sum(${missing})", 0.0),
        ])
    }

    /// XPath 1.0 §4.1 and ODK XForms, node-set functions.
    func testNodeSetFunctions() {
        check([
            ExpressionRow("count(${r})", ["r": ["a", "", "b"]], 3.0),
            ExpressionRow("count(${missing})", 0.0),
            ExpressionRow("count(${a})", ["a": ""], 1.0),
            ExpressionRow("count-non-empty(${r})", ["r": ["a", "", "b"]], 2.0),
            ExpressionRow("count(randomize(${r}, 42))", ["r": ["a", "b", "c", "d"]], 4.0),
            ExpressionRow("count(instance('list')/root/item)", 0.0),
        ])
    }

    /// ODK XForms, select functions: a select_multiple's answer is its choices separated by spaces.
    func testSelectFunctions() {
        check([
            ExpressionRow("selected('a b c', 'b')", true),
            ExpressionRow("selected('a b c', 'd')", false),
            ExpressionRow("selected('a b c', ' b ')", true),
            ExpressionRow("selected('abc', 'b')", false),
            ExpressionRow("selected('', 'a')", false),
            ExpressionRow("selected(${s}, 'x')", ["s": "x y"], true),
            ExpressionRow("selected(${s}, 'x')", ["s": ""], false),
            ExpressionRow("is-selected('a b', 'a')", true),
            ExpressionRow("count-selected('a b c')", 3.0),
            ExpressionRow("count-selected('')", 0.0),
            ExpressionRow("count-selected('  a  b ')", 2.0),
            ExpressionRow("count-selected(${s})", ["s": "x y"], 2.0),
            // ODK: selected-at() is 0-based.
            ExpressionRow("selected-at('a b', 1)", "b"),
            ExpressionRow("selected-at('a b', 0)", "a"),
            ExpressionRow("selected-at('a b', 2)", ""),
            ExpressionRow("selected-at('a b', -1)", ""),
            ExpressionRow("selected-at('', 0)", ""),
        ])
    }

    /// ODK XForms, geographic functions, against distances worked out by hand.
    func testGeographicFunctions() {
        check([
            ExpressionRow("distance('0 0 0 0;0 1 0 0')", .number(GeoPointTestValues.oneDegree)),
            ExpressionRow("distance(${p})", ["p": ["0 0", "0 1", "0 2"]], .number(2 * GeoPointTestValues.oneDegree)),
            ExpressionRow("distance('0 0')", 0.0),
            ExpressionRow("round(area('0 0;0 1;1 1;1 0;0 0') div 1000000)", 12391.0),
            // JavaRosa's several-argument form: each argument a point, in order.
            ExpressionRow("distance('0 0', '0 1', '0 2 5 3')", .number(2 * GeoPointTestValues.oneDegree)),
            ExpressionRow("distance(${a}, ${b})", ["a": ["0 0"], "b": ["0 1"]], .number(GeoPointTestValues.oneDegree)),
            // geofence(point, shape): inside by crossings, as JavaRosa decides it.
            ExpressionRow("geofence('0.5 0.5', '0 0;0 1;1 1;1 0;0 0')", true),
            ExpressionRow("geofence('1.5 0.5', '0 0;0 1;1 1;1 0;0 0')", false),
            ExpressionRow("geofence('0.9 0.2', '0 0;0 1;1 0;0 0')", false),
            ExpressionRow("geofence('0.1 0.2', ${s})", ["s": ["0 0", "0 1", "1 0", "0 0"]], true),
            ExpressionRow("geofence('', '0 0;0 1;1 1;1 0;0 0')", false),
        ])
    }

    func testRandomValues() throws {
        let context = ExpressionTestContext()
        let random = try FormExpression("random()").evaluate(in: context).numberValue
        XCTAssertTrue((0..<1).contains(random))
        let uuid = try FormExpression("uuid()").evaluate(in: context).stringValue
        XCTAssertNotNil(uuid.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/), uuid)
        XCTAssertNotEqual(try FormExpression("uuid()").evaluate(in: context), try FormExpression("uuid()").evaluate(in: context))

        var shuffling = context
        shuffling.answers["r"] = ["a", "b", "c", "d", "e"]
        let seeded = try FormExpression("randomize(${r}, 7)")
        let once = seeded.evaluate(in: shuffling)
        XCTAssertEqual(once, seeded.evaluate(in: shuffling))
        guard case .nodes(let nodes) = once else { return XCTFail("\(once)") }
        XCTAssertEqual(nodes.sorted(), ["a", "b", "c", "d", "e"])
    }

    /// Without a form there are no texts or files to read; a running form
    /// gives them (`ExternalDataTests`).
    func testLookupsApartFromAFormReadAsBlank() {
        check([
            ExpressionRow("jr:itext('label')", ""),
            ExpressionRow("pulldata('fruits', 'name', 'key', 'x')", ""),
        ])
    }
}

private enum GeoPointTestValues {
    /// One degree of a great circle with ODK's Earth radius, 6378100 m.
    static let oneDegree = 6_378_100.0 * Double.pi / 180
}
