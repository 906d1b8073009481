import Foundation

extension ExpressionEvaluator {
    /// A function's value, its arguments evaluated only as far as it needs them.
    func call(_ call: FunctionCall) -> ExpressionValue {
        let arguments = call.arguments
        func value(_ index: Int) -> ExpressionValue { evaluate(arguments[index]) }
        func string(_ index: Int) -> String { value(index).stringValue }
        func number(_ index: Int) -> Double { self.number(value(index)) }
        func allStrings(from start: Int = 0) -> [String] {
            arguments[start...].flatMap { strings(of: evaluate($0)) }
        }

        switch call.function {
        // MARK: Strings
        case .string:
            return .string(arguments.isEmpty ? context.contextNodeValue : string(0))
        case .concat:
            // ODK: every node of a node-set argument counts, not only the first as in XPath.
            return .string(boundedJoin(allStrings()))
        case .join:
            return .string(boundedJoin(allStrings(from: 1), separator: string(0)))
        case .substr:
            return .string(substr(string(0), start: number(1), end: arguments.count == 3 ? number(2) : nil))
        case .substring:
            return .string(substring(string(0), start: number(1), length: arguments.count == 3 ? number(2) : nil))
        case .substringBefore:
            let (text, separator) = (string(0), string(1))
            guard !separator.isEmpty, let range = text.firstRange(of: separator) else { return .string("") }
            return .string(String(text[..<range.lowerBound]))
        case .substringAfter:
            let (text, separator) = (string(0), string(1))
            if separator.isEmpty { return .string(text) }
            guard let range = text.firstRange(of: separator) else { return .string("") }
            return .string(String(text[range.upperBound...]))
        case .translate:
            return .string(translate(string(0), from: string(1), to: string(2)))
        case .stringLength:
            let text = arguments.isEmpty ? context.contextNodeValue : string(0)
            return .number(Double(text.unicodeScalars.count))
        case .normalizeSpace:
            let text = arguments.isEmpty ? context.contextNodeValue : string(0)
            // Every kind of space, and control characters, as JavaRosa's
            // trim() drops them: a name of no-break spaces is blank.
            return .string(text.split { $0.isWhitespace || $0.unicodeScalars.allSatisfy(\.properties.isControlOrFormat) }
                .joined(separator: " "))
        case .contains:
            let needle = string(1)
            return .boolean(needle.isEmpty || string(0).firstRange(of: needle) != nil)
        case .startsWith:
            return .boolean(string(0).hasPrefix(string(1)))
        case .endsWith:
            return .boolean(string(0).hasSuffix(string(1)))
        case .uuid:
            if arguments.isEmpty { return .string(UUID().uuidString.lowercased()) }
            let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
            let length = min(max(0, clampedInt(number(0))), 10_000)
            return .string(String((0..<length).map { _ in alphabet.randomElement()! }))
        case .base64Decode:
            let data = Data(base64Encoded: string(0)) ?? Data()
            return .string(String(decoding: data, as: UTF8.self))
        case .digest:
            return .string(Digest.text(of: string(0), algorithm: string(1), encoding: arguments.count == 3 ? string(2) : "base64") ?? "")
        case .pulldata:
            return .string(pulldata(instance: string(0), column: string(1), keyColumn: string(2), key: string(3)))
        case .itext:
            return .string(context.itext(string(0)) ?? "")
        case .version:
            return .string(context.rootAttribute("version") ?? "")
        case .property, .localName, .name, .namespaceURI, .id, .unknownExtension:
            // Refused when the form is read (`ExpressionFunction.isRun`).
            return .string("")

        // MARK: Booleans
        case .if:
            return value(value(0).booleanValue ? 1 : 2)
        case .coalesce:
            let first = value(0)
            return isBlank(first) ? value(1) : first
        case .once:
            let current = context.currentValue
            return current.isEmpty ? value(0) : .string(current)
        case .true:
            return .boolean(true)
        case .false:
            return .boolean(false)
        case .boolean:
            return .boolean(value(0).booleanValue)
        case .booleanFromString:
            let text = string(0)
            return .boolean(text == "1" || text.lowercased() == "true")
        case .not:
            return .boolean(!value(0).booleanValue)
        case .regex:
            let text = string(0)
            let pattern = call.pattern ?? CompiledPattern(string(1))
            return .boolean(pattern?.matches(text) ?? false)
        case .checklist:
            let count = arguments[2...].reduce(0) { $0 + checkedCount(evaluate($1)) }
            let minimum = number(0)
            let maximum = number(1)
            return .boolean((minimum < 0 || Double(count) >= minimum) && (maximum < 0 || Double(count) <= maximum))
        case .weightedChecklist:
            return .boolean(weightedChecklist(arguments))
        case .lang:
            return .boolean(false)

        // MARK: Numbers
        case .number:
            return .number(arguments.isEmpty ? self.number(.string(context.contextNodeValue)) : number(0))
        case .random:
            return .number(Double.random(in: 0..<1))
        case .int:
            let operand = number(0)
            return .number(operand.isFinite ? operand.rounded(.towardZero) : operand)
        case .sum:
            // NB: XPath's sum is NaN if any node is; ODK Collect skips blank (NaN) values, so a
            // total over a repeat does not vanish while one row is unanswered.
            return .number(numbers(of: value(0)).filter { !$0.isNaN }.reduce(0, +))
        case .max, .min:
            let values = arguments.flatMap { numbers(of: evaluate($0)) }.filter { !$0.isNaN }
            let result = call.function == .max ? values.max() : values.min()
            return .number(result ?? .nan)
        case .round:
            return .number(round(number(0), decimals: arguments.count == 2 ? number(1) : 0))
        case .floor:
            return .number(Foundation.floor(number(0)))
        case .ceiling:
            return .number(Foundation.ceil(number(0)))
        case .pow:
            return .number(Foundation.pow(number(0), number(1)))
        case .log:
            return .number(Foundation.log(number(0)))
        case .log10:
            return .number(Foundation.log10(number(0)))
        case .abs:
            return .number(Swift.abs(number(0)))
        case .sin:
            return .number(Foundation.sin(number(0)))
        case .cos:
            return .number(Foundation.cos(number(0)))
        case .tan:
            return .number(Foundation.tan(number(0)))
        case .asin:
            return .number(Foundation.asin(number(0)))
        case .acos:
            return .number(Foundation.acos(number(0)))
        case .atan:
            return .number(Foundation.atan(number(0)))
        case .atan2:
            return .number(Foundation.atan2(number(0), number(1)))
        case .sqrt:
            return .number(number(0).squareRoot())
        case .exp:
            return .number(Foundation.exp(number(0)))
        case .exp10:
            return .number(Foundation.pow(10, number(0)))
        case .pi:
            return .number(Double.pi)

        // MARK: Node-sets
        case .count:
            if case .nodes(let nodes) = value(0) { return .number(Double(nodes.count)) }
            return .number(.nan)
        case .countNonEmpty:
            if case .nodes(let nodes) = value(0) { return .number(Double(nodes.filter { !$0.isEmpty }.count)) }
            return .number(.nan)
        case .position:
            // `position(..)` and `position()` alike: the repeat instance the expression is in.
            return .number(Double(context.position ?? 1))
        case .last:
            return .number(.nan)
        case .instance:
            return instancePath(string(0), steps: [])
        case .current:
            return .nodes([context.currentValue])
        case .randomize:
            let nodes = strings(of: value(0))
            return .nodes(arguments.count == 2 ? seededShuffle(nodes, seed: number(1)) : nodes.shuffled())

        // MARK: Dates
        case .today, .now, .date, .dateTime, .decimalDate, .decimalDateTime, .decimalTime, .formatDate, .formatDateTime:
            return dateFunction(call.function, arguments)

        // MARK: Selects, translations, repeats
        case .selected:
            let choice = words(of: string(1)).first ?? ""
            return .boolean(words(of: string(0)).contains(choice))
        case .selectedAt:
            let choices = words(of: string(0))
            let index = clampedInt(number(1))
            return .string(choices.indices.contains(index) ? String(choices[index]) : "")
        case .countSelected:
            return .number(Double(words(of: string(0)).count))
        case .choiceName:
            let question: String? = switch arguments[1] {
            case .reference(let name): name
            case .literal(let text): questionName(in: text)
            default: questionName(in: string(1))
            }
            guard let question else { return .string("") }
            return .string(context.choiceLabel(of: string(0), question: question) ?? "")
        case .indexedRepeat:
            // The context resolves one repeat level; with nested repeats the innermost pair says
            // which instance is meant.
            let pair = arguments.count - 2
            guard let target = questionName(of: arguments[0]), let group = questionName(of: arguments[pair]) else {
                return .nodes([])
            }
            let index = max(1, clampedInt(number(pair + 1)))
            return .nodes(context.indexedRepeatValue(of: target, repeat: group, index: index).map { [$0] } ?? [])

        // MARK: Geography
        case .area:
            return .number(GeoPoint.area(of: geoPoints(value(0))))
        case .distance where arguments.count == 1:
            return .number(GeoPoint.distance(along: geoPoints(value(0))))
        case .distance:
            // Each argument one point, as JavaRosa reads `distance(${a}, ${b}, …)`.
            return .number(GeoPoint.distance(along: arguments.indices.compactMap { GeoPoint(string($0)) }))
        case .geofence:
            guard let point = GeoPoint(string(0)) else { return .boolean(false) }
            return .boolean(point.isInside(geoPoints(value(1))))

        case .depend:
            return value(0)
        }
    }

    // MARK: - Helpers

    func numbers(of value: ExpressionValue) -> [Double] {
        if case .nodes(let nodes) = value { return nodes.map { number(.string($0)) } }
        return [number(value)]
    }

    /// Empty for `coalesce()`: a blank string or NaN.
    private func isBlank(_ value: ExpressionValue) -> Bool {
        switch value {
        case .number(let number): number.isNaN
        case .string, .nodes: value.stringValue.isEmpty
        default: false
        }
    }

    /// A space-separated list's items (a select_multiple's answer).
    func words(of string: String) -> [Substring] {
        string.split { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    }

    /// ODK's `substr()`: 0-based, from `start` up to `end` (exclusive), negatives counting from the end.
    private func substr(_ string: String, start: Double, end: Double?) -> String {
        let scalars = Array(string.unicodeScalars)
        var first = clampedInt(start)
        var last = end.map(clampedInt) ?? scalars.count
        if first < 0 { first += scalars.count }
        if last < 0 { last += scalars.count }
        first = min(max(0, first), scalars.count)
        last = min(max(0, last), scalars.count)
        guard first < last else { return "" }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars[first..<last])
        return result
    }

    /// XPath 1.0 §4.2 `substring()`: 1-based, positions compared after rounding, so NaN selects nothing.
    private func substring(_ string: String, start: Double, length: Double?) -> String {
        let first = xpathRound(start)
        let end = length.map { first + xpathRound($0) } ?? .infinity
        var result = ""
        for (offset, scalar) in string.unicodeScalars.enumerated() {
            let position = Double(offset + 1)
            if position >= first, position < end { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    private func xpathRound(_ number: Double) -> Double {
        (number + 0.5).rounded(.down)
    }

    private func translate(_ string: String, from: String, to: String) -> String {
        let to = Array(to.unicodeScalars)
        var map: [Unicode.Scalar: Unicode.Scalar?] = [:]
        for (index, scalar) in from.unicodeScalars.enumerated() where map[scalar] == nil {
            map[scalar] = index < to.count ? to[index] : Optional<Unicode.Scalar>.none
        }
        var result = ""
        for scalar in string.unicodeScalars {
            if let replacement = map[scalar] {
                if let replacement { result.unicodeScalars.append(replacement) }
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// ODK's `round()`: half away from zero (XPath rounds halves up, so `round(-2.5)` is -2 there),
    /// with an optional number of decimals, negative for tens, hundreds…
    private func round(_ number: Double, decimals: Double) -> Double {
        guard number.isFinite, number != 0 else { return number }
        let places = clampedInt(decimals)
        // JavaRosa's bound: more places either way is not a rounding anyone meant.
        guard abs(places) <= 30 else { return .nan }
        return DecimalDigits(number).rounded(toDecimals: places)
    }

    /// How many of a checklist's answers count as checked: true, or a number above 0.
    private func checkedCount(_ value: ExpressionValue) -> Int {
        switch value {
        case .boolean(let boolean): boolean ? 1 : 0
        default: numbers(of: value).filter { $0 > 0 }.count
        }
    }

    private func weightedChecklist(_ arguments: [ExpressionNode]) -> Bool {
        let minimum = number(evaluate(arguments[0]))
        let maximum = number(evaluate(arguments[1]))
        var flags: [ExpressionValue] = []
        var weights: [Double] = []
        let values = arguments[2...].map(evaluate)
        if values.count == 2, case .nodes(let nodes) = values[0], case .nodes = values[1] {
            flags = nodes.map { .string($0) }
            weights = numbers(of: values[1])
        } else {
            for pair in stride(from: 0, to: values.count, by: 2) {
                flags.append(values[pair])
                weights.append(number(values[pair + 1]))
            }
        }
        let total = zip(flags, weights).reduce(0) { $0 + (checkedCount($1.0) > 0 ? $1.1 : 0) }
        return total >= minimum && total <= maximum
    }

    /// The question `jr:choice-name()` names in its second argument: `'${name}'`, or a path
    /// (`'/data/name'`, as pyxform writes it).
    private func questionName(in text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("${"), trimmed.hasSuffix("}") {
            return String(trimmed.dropFirst(2).dropLast())
        }
        let last = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
        return isNCName(last) ? last : nil
    }

    /// The question an argument written as `${name}` or a path points at.
    private func questionName(of node: ExpressionNode) -> String? {
        switch node {
        case .reference(let name): name
        case .path(_, let steps): steps.last(where: { $0.selectedName != nil })?.selectedName
        case .filter(let primary, _, let steps):
            steps.last(where: { $0.selectedName != nil })?.selectedName ?? questionName(of: primary)
        default: nil
        }
    }

    private func geoPoints(_ value: ExpressionValue) -> [GeoPoint] {
        let texts = strings(of: value)
        let points = texts.count == 1 ? texts[0].split(separator: ";").map(String.init) : texts
        return points.compactMap(GeoPoint.init)
    }
}

/// A double as an Int, NaN as 0 and the infinities clamped, as ODK reads counts and indexes.
/// `parts` joined, or `""` past `FormLimits.builtStringBytes`: calculations
/// that double a text at each step stop growing instead of filling memory.
/// Measured before joining, so a result past the cap is never built.
func boundedJoin(_ parts: [String], separator: String = "") -> String {
    var length = separator.utf8.count * max(parts.count - 1, 0)
    for part in parts {
        length += part.utf8.count
        if length > FormLimits.builtStringBytes { return "" }
    }
    return parts.joined(separator: separator)
}

func clampedInt(_ number: Double) -> Int {
    guard !number.isNaN else { return 0 }
    return Int(max(-1e15, min(1e15, number.rounded(.towardZero))))
}

extension Unicode.Scalar.Properties {
    /// C0 and C1 controls (DEL too) and the bidi overrides and isolates:
    /// characters a stored answer loses (see `removingControlCharacters`).
    var isControlOrFormat: Bool {
        generalCategory == .control || generalCategory == .format
    }
}

/// ODK's `randomize()` with a seed, and a select's `randomize` parameter:
/// an inside-out Fisher–Yates shuffle driven by a Park–Miller generator, so
/// a seed gives the same order every time.
func seededShuffle<Item>(_ nodes: [Item], seed: Double) -> [Item] {
    let modulus: Int64 = 2_147_483_647
    var state = Int64(clampedInt(seed.rounded(.towardZero))) % modulus
    if state <= 0 { state += modulus - 1 }
    var result: [Item] = []
    result.reserveCapacity(nodes.count)
    for (index, node) in nodes.enumerated() {
        state = state * 16_807 % modulus
        let random = Double(state - 1) / Double(modulus - 1)
        let swap = Int(random * Double(index + 1))
        if swap == index {
            result.append(node)
        } else {
            result.append(result[swap])
            result[swap] = node
        }
    }
    return result
}
