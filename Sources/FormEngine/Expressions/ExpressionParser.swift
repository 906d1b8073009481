/// A recursive-descent parser for XPath 1.0's expression grammar (§3), with `${name}` as a
/// primary expression.
struct ExpressionParser {
    private let tokens: [ExpressionToken]
    private var index = 0
    private var depth = 0
    /// The height of the tallest subexpression `orExpression` finished since
    /// the innermost `measuredPath()` began: what a path, call or parenthesis
    /// built from them reaches down to.
    private var tallestNested = 0
    /// Whether the expression reads `.` or the current question's value some other way.
    private(set) var usesCurrentValue = false
    /// Whether it calls a function whose value changes by itself (`now()`, `random()`).
    private(set) var isVolatile = false
    /// What its paths into the form read, by `LocationStep.formKey`; see `FormExpression.pathNames`.
    private(set) var pathNames: [String] = []
    /// The ids `instance('…')` names literally; see `FormExpression.instanceIDs`.
    private(set) var instanceIDs: [String] = []
    /// The files `pulldata('…', …)` names literally; see `FormExpression.pulldataIDs`.
    private(set) var pulldataIDs: [String] = []
    /// Whether it calls `jr:itext()` or `jr:choice-name()`, whose texts are the current language's.
    private(set) var readsLanguage = false
    private(set) var readsLastSaved = false

    /// The axes a path into a secondary instance may take.
    private static let instanceAxes: Set<LocationStep.Axis> = [.child, .self, .descendant, .descendantOrSelf, .attribute]

    init(tokens: [ExpressionToken]) {
        self.tokens = tokens
    }

    mutating func parse() throws(ExpressionError) -> ExpressionNode {
        let expression = try orExpression()
        guard current.kind == .end else { throw unexpected() }
        return expression.node
    }

    /// A subtree and its height. A flat `1 + 1 + … + 1` nests no parenthesis,
    /// yet every `+` is a level that evaluating (and freeing) the tree
    /// recurses through, so every level counts against the limit, and the
    /// tree is refused while it is built, before it can be too deep to free.
    private struct Operand {
        var node: ExpressionNode
        var height: Int
    }

    private func combine(_ left: Operand, _ right: Operand, _ make: (ExpressionNode, ExpressionNode) -> ExpressionNode) throws(ExpressionError) -> Operand {
        try checked(Operand(node: make(left.node, right.node), height: max(left.height, right.height) + 1))
    }

    private func checked(_ operand: Operand) throws(ExpressionError) -> Operand {
        guard operand.height <= FormLimits.expressionDepth else {
            throw ExpressionError(
                "expression nested too deeply at \(current.offset): more than \(FormLimits.expressionDepth) levels of operators, calls and parentheses",
                at: current.offset
            )
        }
        return operand
    }

    // MARK: - Operators, weakest first

    private mutating func orExpression() throws(ExpressionError) -> Operand {
        // Each level of parentheses, predicates or arguments costs the parser
        // about ten calls of stack; no form nests anywhere near this deep.
        depth += 1
        defer { depth -= 1 }
        guard depth <= 200 else {
            throw ExpressionError("expression nested too deeply at \(current.offset)", at: current.offset)
        }
        var left = try andExpression()
        while take(.or) { left = try combine(left, try andExpression()) { .binary(.or, $0, $1) } }
        tallestNested = max(tallestNested, left.height)
        return left
    }

    private mutating func andExpression() throws(ExpressionError) -> Operand {
        var left = try equalityExpression()
        while take(.and) { left = try combine(left, try equalityExpression()) { .binary(.and, $0, $1) } }
        return left
    }

    private mutating func equalityExpression() throws(ExpressionError) -> Operand {
        var left = try relationalExpression()
        while true {
            let operation: BinaryOperator
            switch current.kind {
            case .equal: operation = .equal
            case .notEqual: operation = .notEqual
            default: return left
            }
            advance()
            left = try combine(left, try relationalExpression()) { .binary(operation, $0, $1) }
        }
    }

    private mutating func relationalExpression() throws(ExpressionError) -> Operand {
        var left = try additiveExpression()
        while true {
            let operation: BinaryOperator
            switch current.kind {
            case .less: operation = .less
            case .lessOrEqual: operation = .lessOrEqual
            case .greater: operation = .greater
            case .greaterOrEqual: operation = .greaterOrEqual
            default: return left
            }
            advance()
            left = try combine(left, try additiveExpression()) { .binary(operation, $0, $1) }
        }
    }

    private mutating func additiveExpression() throws(ExpressionError) -> Operand {
        var left = try multiplicativeExpression()
        while true {
            let operation: BinaryOperator
            switch current.kind {
            case .plus: operation = .add
            case .minus: operation = .subtract
            default: return left
            }
            advance()
            left = try combine(left, try multiplicativeExpression()) { .binary(operation, $0, $1) }
        }
    }

    private mutating func multiplicativeExpression() throws(ExpressionError) -> Operand {
        var left = try unaryExpression()
        while true {
            let operation: BinaryOperator
            switch current.kind {
            case .multiply: operation = .multiply
            case .div: operation = .divide
            case .mod: operation = .modulo
            default: return left
            }
            advance()
            left = try combine(left, try unaryExpression()) { .binary(operation, $0, $1) }
        }
    }

    private mutating func unaryExpression() throws(ExpressionError) -> Operand {
        if take(.minus) {
            var count = 1
            while take(.minus) { count += 1 }
            let operand = try unionExpression()
            return count % 2 == 1
                ? try checked(Operand(node: .negate(operand.node), height: operand.height + 1))
                : try checked(Operand(node: .negate(.negate(operand.node)), height: operand.height + 2))
        }
        return try unionExpression()
    }

    private mutating func unionExpression() throws(ExpressionError) -> Operand {
        var left = try measuredPath()
        while take(.pipe) { left = try combine(left, try measuredPath()) { .union($0, $1) } }
        return left
    }

    /// A path or primary expression, one level above the tallest expression
    /// nested in it (a predicate, an argument, a parenthesis).
    private mutating func measuredPath() throws(ExpressionError) -> Operand {
        let outer = tallestNested
        tallestNested = 0
        defer { tallestNested = outer }
        let node = try pathExpression()
        return try checked(Operand(node: node, height: tallestNested + 1))
    }

    // MARK: - Paths

    private mutating func pathExpression() throws(ExpressionError) -> ExpressionNode {
        switch current.kind {
        case .slash:
            advance()
            let steps = startsStep ? try relativePath() : []
            notePath(steps, isAbsolute: true)
            return .path(isAbsolute: true, steps: steps)
        case .doubleSlash:
            advance()
            let steps = [descendantOrSelf] + (try relativePath())
            notePath(steps, isAbsolute: true)
            return .path(isAbsolute: true, steps: steps)
        case _ where startsStep:
            let steps = try relativePath()
            if steps.count == 1, steps[0].isSelf { usesCurrentValue = true }
            // `../age` reaches a question by path; a bare `age` may be a choice's column.
            if steps.first?.axis == .parent { notePath(steps, isAbsolute: false) }
            return .path(isAbsolute: false, steps: steps)
        default:
            let start = current.offset
            let primary = try primaryExpression()
            var predicates: [ExpressionNode] = []
            while current.kind == .leftBracket { predicates.append(try predicate()) }
            var steps: [LocationStep] = []
            if take(.slash) {
                steps = try relativePath()
            } else if take(.doubleSlash) {
                steps = [descendantOrSelf] + (try relativePath())
            }
            // `current()/../age` reaches a question by path, as `../age` does.
            if case .call(let call) = primary, call.function == .current { notePath(steps, isAbsolute: false) }
            // A data file is read as a tree without links up or across: a
            // path that would climb it is refused rather than read as nothing.
            if case .call(let call) = primary, call.function == .instance,
               let step = steps.first(where: { !Self.instanceAxes.contains($0.axis) }) {
                throw ExpressionError(
                    "instance() paths go down from the instance's root; '\(step.axis == .parent ? ".." : step.axis.rawValue + "::")' is not supported",
                    at: start
                )
            }
            if predicates.isEmpty, steps.isEmpty { return primary }
            return .filter(primary, predicates: predicates, steps: steps)
        }
    }

    private mutating func notePath(_ steps: [LocationStep], isAbsolute: Bool) {
        guard let key = LocationStep.formKey(steps, isAbsolute: isAbsolute), !pathNames.contains(key) else { return }
        pathNames.append(key)
    }

    private var startsStep: Bool {
        switch current.kind {
        case .nameTest, .nodeType, .axisName, .at, .dot, .dotDot: true
        default: false
        }
    }

    private var descendantOrSelf: LocationStep {
        LocationStep(axis: .descendantOrSelf, test: .type("node"))
    }

    private mutating func relativePath() throws(ExpressionError) -> [LocationStep] {
        var steps = [try step()]
        while true {
            if take(.slash) {
                steps.append(try step())
            } else if take(.doubleSlash) {
                steps.append(descendantOrSelf)
                steps.append(try step())
            } else {
                return steps
            }
        }
    }

    private mutating func step() throws(ExpressionError) -> LocationStep {
        var step: LocationStep
        switch current.kind {
        case .dot:
            advance()
            step = LocationStep(axis: .self, test: .type("node"))
        case .dotDot:
            advance()
            step = LocationStep(axis: .parent, test: .type("node"))
        case .at:
            advance()
            step = LocationStep(axis: .attribute, test: try nodeTest())
        case .axisName(let name):
            guard let axis = LocationStep.Axis(rawValue: name) else {
                throw ExpressionError("unknown axis \(name):: at \(current.offset)", at: current.offset)
            }
            advance()
            try expect(.doubleColon)
            step = LocationStep(axis: axis, test: try nodeTest())
        default:
            step = LocationStep(axis: .child, test: try nodeTest())
        }
        // XPath 1.0 allows no predicate after `.` or `..`; later XPaths do, and so do we.
        while current.kind == .leftBracket { step.predicates.append(try predicate()) }
        return step
    }

    private mutating func nodeTest() throws(ExpressionError) -> LocationStep.NodeTest {
        switch current.kind {
        case .nameTest(let name):
            advance()
            return .name(name)
        case .nodeType(let type):
            advance()
            try expect(.leftParenthesis)
            if type == "processing-instruction", case .literal = current.kind { advance() }
            try expect(.rightParenthesis)
            return .type(type)
        default:
            throw unexpected()
        }
    }

    private mutating func predicate() throws(ExpressionError) -> ExpressionNode {
        try expect(.leftBracket)
        let expression = try orExpression()
        try expect(.rightBracket)
        return expression.node
    }

    // MARK: - Primary expressions

    private mutating func primaryExpression() throws(ExpressionError) -> ExpressionNode {
        let token = current
        switch token.kind {
        case .literal(let value):
            advance()
            return .literal(value)
        case .number(let value):
            advance()
            return .number(value)
        case .reference(let name):
            advance()
            return .reference(name)
        case .lastSaved(let name):
            advance()
            readsLastSaved = true
            return .lastSaved(name)
        case .variable(let name):
            advance()
            return .variable(name)
        case .leftParenthesis:
            advance()
            let expression = try orExpression()
            try expect(.rightParenthesis)
            return expression.node
        case .functionName(let name):
            return try functionCall(name)
        default:
            throw unexpected()
        }
    }

    private mutating func functionCall(_ name: String) throws(ExpressionError) -> ExpressionNode {
        let offset = current.offset
        let entry = ExpressionFunction.table[name]
        guard entry != nil || name.contains(":") else {
            throw ExpressionError("unknown function \(name)()", at: offset)
        }
        advance()
        try expect(.leftParenthesis)
        var arguments: [ExpressionNode] = []
        if !take(.rightParenthesis) {
            repeat { arguments.append(try orExpression().node) } while take(.comma)
            try expect(.rightParenthesis)
        }
        if let entry, !entry.arity.accepts(arguments.count) {
            throw ExpressionError(entry.arity.message(for: name), at: offset)
        }
        let function = entry?.function ?? .unknownExtension
        if function.isVolatile || (function == .randomize && arguments.count == 1) { isVolatile = true }
        switch function {
        case .once, .current: usesCurrentValue = true
        // Without an argument these read the context node.
        case .stringLength, .normalizeSpace, .string, .number: usesCurrentValue = usesCurrentValue || arguments.isEmpty
        default: break
        }
        if !function.isRun {
            throw ExpressionError("Survey Form cannot run \(name)() yet", at: offset)
        }
        if function == .digest {
            if case .literal(let algorithm) = arguments[1], !Digest.algorithms.contains(algorithm.uppercased()) {
                throw ExpressionError("digest() takes MD5, SHA-1, SHA-256, SHA-384 or SHA-512, not '\(algorithm)'", at: offset)
            }
            if arguments.count == 3, case .literal(let encoding) = arguments[2], !Digest.encodings.contains(encoding.lowercased()) {
                throw ExpressionError("digest() encodes as base64 or hex, not '\(encoding)'", at: offset)
            }
        }
        if function == .itext || function == .choiceName { readsLanguage = true }
        if function == .instance, case .literal(let id) = arguments[0], !instanceIDs.contains(id) { instanceIDs.append(id) }
        if function == .pulldata, case .literal(let id) = arguments[0], !pulldataIDs.contains(id) { pulldataIDs.append(id) }
        var call = FunctionCall(function: function, name: name, arguments: arguments)
        if function == .regex, case .literal(let pattern) = arguments[1] {
            guard let compiled = CompiledPattern(pattern) else {
                throw ExpressionError("invalid regular expression '\(pattern)' in regex()", at: offset)
            }
            call.pattern = compiled
        }
        return .call(call)
    }

    // MARK: - Tokens

    private var current: ExpressionToken { tokens[index] }

    private mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    private mutating func take(_ kind: ExpressionToken.Kind) -> Bool {
        guard current.kind == kind else { return false }
        advance()
        return true
    }

    private mutating func expect(_ kind: ExpressionToken.Kind) throws(ExpressionError) {
        guard take(kind) else { throw unexpected() }
    }

    private func unexpected() -> ExpressionError {
        let token = current
        if token.kind == .end {
            return ExpressionError("unexpected end of expression at \(token.offset)", at: token.offset)
        }
        return ExpressionError("unexpected '\(token.text)' at \(token.offset)", at: token.offset)
    }
}
