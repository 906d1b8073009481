import Foundation
import XCTest

@testable import FormEngine

/// A form as an expression sees it: answers by question name, the current question's value,
/// repeats and choice labels, at a fixed moment.
struct ExpressionTestContext: EvaluationContext {
    var answers: [String: Nodes] = [:]
    var currentValue = ""
    var position: Int?
    /// Per repeat, per question, the values of its instances in order.
    var repeats: [String: [String: [String]]] = [:]
    /// Per question, per choice name, its label.
    var labels: [String: [String: String]] = [:]
    /// 2023-11-14T22:13:20Z, a Tuesday.
    var now = Date(timeIntervalSince1970: 1_700_000_000)
    var timeZone = TimeZone(secondsFromGMT: 0)!
    /// A choice filter's choice: what bare names read before questions.
    var choiceColumns: [String: String] = [:]

    /// A path's route (`/group/a`, `../a`) reads its last name: every name is one question's here.
    func values(of name: String) -> [String] {
        answers[Self.lastName(name)]?.values ?? []
    }

    func pathValues(of name: String) -> [String] {
        choiceColumns[Self.lastName(name)].map { [$0] } ?? values(of: name)
    }

    /// A path from the root reads the form, as `ChoiceFilterContext` does, never a column.
    func formPathValues(of name: String) -> [String] {
        values(of: name)
    }

    private static func lastName(_ name: String) -> String {
        name.split(separator: "/").last.map(String.init) ?? name
    }

    func indexedRepeatValue(of name: String, repeat: String, index: Int) -> String? {
        guard let values = repeats[`repeat`]?[name], values.indices.contains(index - 1) else { return nil }
        return values[index - 1]
    }

    func choiceLabel(of choice: String, question name: String) -> String? {
        labels[name]?[choice]
    }
}

/// A question's nodes: `"x"` for one, `["x", "y"]` for a question in a repeat.
struct Nodes: ExpressibleByStringLiteral, ExpressibleByArrayLiteral {
    var values: [String]

    init(stringLiteral value: String) { values = [value] }
    init(arrayLiteral elements: String...) { values = elements }
}

/// An expected value, written as a literal: `"text"`, `3.5`, `true`, or `.nan`, `.nodes([...])`.
struct Expected: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, CustomStringConvertible
{
    var value: ExpressionValue

    init(_ value: ExpressionValue) { self.value = value }
    init(stringLiteral value: String) { self.value = .string(value) }
    init(floatLiteral value: Double) { self.value = .number(value) }
    init(integerLiteral value: Int) { self.value = .number(Double(value)) }
    init(booleanLiteral value: Bool) { self.value = .boolean(value) }

    static let nan = Expected(.number(.nan))
    static let infinity = Expected(.number(.infinity))
    static let minusInfinity = Expected(.number(-.infinity))
    static func number(_ number: Double) -> Expected { Expected(.number(number)) }
    static func nodes(_ nodes: [String]) -> Expected { Expected(.nodes(nodes)) }
    static func date(_ days: Int) -> Expected { Expected(.date(days)) }

    var description: String { "\(value)" }
}

/// One row of a table-driven test: an expression, the answers it reads and its expected value.
struct ExpressionRow {
    var expression: String
    var answers: [String: Nodes]
    var expected: ExpressionValue
    var line: UInt

    init(_ expression: String, _ expected: Expected, line: UInt = #line) {
        self.init(expression, [:], expected, line: line)
    }

    init(_ expression: String, _ answers: [String: Nodes], _ expected: Expected, line: UInt = #line) {
        self.expression = expression
        self.answers = answers
        self.expected = expected.value
        self.line = line
    }
}

extension XCTestCase {
    /// Evaluates every row in `context` (with the row's answers added) and compares the result:
    /// numbers within a relative 1e-12, NaN equal to NaN.
    func check(_ rows: [ExpressionRow], in context: ExpressionTestContext = ExpressionTestContext(), file: StaticString = #filePath) {
        for row in rows {
            var context = context
            context.answers.merge(row.answers) { $1 }
            let value: ExpressionValue
            do {
                value = try FormExpression(row.expression).evaluate(in: context)
            } catch {
                XCTFail("\(row.expression): \(error)", file: file, line: row.line)
                continue
            }
            XCTAssertTrue(
                matches(value, row.expected),
                "\(row.expression) gave \(value), expected \(row.expected)",
                file: file, line: row.line
            )
        }
    }

    private func matches(_ value: ExpressionValue, _ expected: ExpressionValue) -> Bool {
        guard case .number(let number) = value, case .number(let wanted) = expected else { return value == expected }
        if number.isNaN || wanted.isNaN { return number.isNaN && wanted.isNaN }
        if number.isInfinite || wanted.isInfinite { return number == wanted }
        return abs(number - wanted) <= 1e-12 * max(1, abs(wanted))
    }
}

/// How `${name}`, paths, `.` and repeats read the form through the context.
final class ExpressionEvaluationTests: XCTestCase {
    func testReferencesAndPaths() {
        let repeats = ["x", "y", "z"] as Nodes
        check([
            // ${name} is a node-set of what values(of:) gives.
            ExpressionRow("${a}", ["a": "1"], .nodes(["1"])),
            ExpressionRow("${r}", ["r": repeats], .nodes(["x", "y", "z"])),
            ExpressionRow("${missing}", .nodes([])),
            // Other paths read their last named step the same way.
            ExpressionRow("/data/group/a", ["a": "1"], .nodes(["1"])),
            ExpressionRow("../a", ["a": "1"], .nodes(["1"])),
            ExpressionRow("current()/../a", ["a": "1"], .nodes(["1"])),
            ExpressionRow("a", ["a": "1"], .nodes(["1"])),
            ExpressionRow("/data/r[2]", ["r": repeats], .nodes(["y"])),
            ExpressionRow("${r}[3]", ["r": repeats], .nodes(["z"])),
            ExpressionRow("${r}[4]", ["r": repeats], .nodes([])),
            ExpressionRow("(${r})[1]", ["r": repeats], .nodes(["x"])),
            ExpressionRow("${r}[1 + 1]", ["r": repeats], .nodes(["y"])),
            ExpressionRow("@id", .nodes([])),
            ExpressionRow("$var", ""),
            // XPath §3.7: `-` continues a name, so `a-b` is one question.
            ExpressionRow("a-b", ["a-b": "7", "a": "1", "b": "2"], .nodes(["7"])),
            ExpressionRow("a - b", ["a": "5", "b": "2"], 3.0),
            ExpressionRow("${a}-${b}", ["a": "5", "b": "2"], 3.0),
            ExpressionRow("${a} -1", ["a": "5"], 4.0),
            ExpressionRow("3-1", 2.0),
            ExpressionRow("count(${r} | ${a})", ["r": repeats, "a": "1"], 4.0),
            ExpressionRow("instance('cities')/root/item", .nodes([])),
        ])
    }

    func testCurrentValue() {
        var context = ExpressionTestContext()
        context.currentValue = "5"
        check([
            ExpressionRow(".", .nodes(["5"])),
            ExpressionRow(". > 3", true),
            ExpressionRow(". = '5'", true),
            ExpressionRow("string-length(.) <= 3", true),
            ExpressionRow("string-length()", 1.0),
            ExpressionRow("number()", 5.0),
            ExpressionRow("./.", .nodes(["5"])),
            ExpressionRow("once(7)", "5"),
            ExpressionRow("current()", .nodes(["5"])),
        ], in: context)
        context.currentValue = ""
        check([
            ExpressionRow(". = ''", true),
            ExpressionRow(". > 3", false),
            ExpressionRow("once(7)", 7.0),
        ], in: context)
    }

    func testRepeatPositionAndIndexedRepeat() {
        var context = ExpressionTestContext()
        context.position = 3
        context.repeats = ["people": ["name": ["Ann", "Bob"]]]
        check([
            ExpressionRow("position(..)", 3.0),
            ExpressionRow("position()", 3.0),
            ExpressionRow("position(..) = 3", true),
            ExpressionRow("indexed-repeat(${name}, ${people}, 2)", .nodes(["Bob"])),
            ExpressionRow("indexed-repeat(${name}, ${people}, 1 + 0)", .nodes(["Ann"])),
            ExpressionRow("indexed-repeat(/data/people/name, /data/people, 1)", .nodes(["Ann"])),
            ExpressionRow("indexed-repeat(${name}, ${people}, 5)", .nodes([])),
            ExpressionRow("indexed-repeat(${name}, ${people}, 2) = 'Bob'", true),
        ], in: context)
        context.position = nil
        check([ExpressionRow("position(..)", 1.0)], in: context)
    }

    func testChoiceName() {
        var context = ExpressionTestContext()
        context.labels = ["s": ["x": "Ex", "y": "Why"]]
        check([
            ExpressionRow("jr:choice-name('x', '${s}')", "Ex"),
            ExpressionRow("jr:choice-name(${s}, '${s}')", ["s": "y"], "Why"),
            ExpressionRow("jr:choice-name(${s}, ' ${s} ')", ["s": "y"], "Why"),
            ExpressionRow("jr:choice-name('x', '/data/s')", "Ex"),
            ExpressionRow("jr:choice-name('zz', '${s}')", ""),
            ExpressionRow("jr:choice-name('x', '${t}')", ""),
            ExpressionRow("jr:choice-name(selected-at(${m}, 1), '${s}')", ["m": "x y"], "Why"),
        ], in: context)
    }

    /// A choice filter reads the choice's columns by bare name and the form's answers by `${name}`
    /// or by a path from the root.
    func testBareNamesReadThroughPathValues() {
        var context = ExpressionTestContext()
        context.choiceColumns = ["name": "berlin", "state": "be"]
        context.answers = ["state": "by", "chosen_state": "be"]
        check([
            ExpressionRow("state = ${chosen_state}", true),
            ExpressionRow("${state} = ${chosen_state}", false),
            // From the root, a path reads the question, as in JavaRosa's itemset predicates.
            ExpressionRow("name != 'munich' and /data/state = 'by'", true),
            ExpressionRow("/data/state = 'be'", false),
            ExpressionRow("string(../state)", "be"),
        ], in: context)
    }

    func testTheSameExpressionEvaluatesAgainstChangingAnswers() throws {
        let expression = try FormExpression("${age} >= 18")
        var context = ExpressionTestContext()
        XCTAssertEqual(expression.evaluate(in: context), .boolean(false))
        context.answers["age"] = ""
        XCTAssertEqual(expression.evaluate(in: context), .boolean(false))
        context.answers["age"] = "18"
        XCTAssertEqual(expression.evaluate(in: context), .boolean(true))
    }
}
