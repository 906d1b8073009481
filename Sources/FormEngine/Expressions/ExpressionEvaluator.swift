import Foundation

/// Walks a parsed expression's tree over the answers a context gives.
struct ExpressionEvaluator<Context: EvaluationContext> {
    let context: Context
    /// Read once: the context may work it out on every call.
    let timeZone: TimeZone

    init(context: Context) {
        self.context = context
        timeZone = context.timeZone
    }

    func evaluate(_ node: ExpressionNode) -> ExpressionValue {
        switch node {
        case .literal(let string): .string(string)
        case .number(let number): .number(number)
        case .reference(let name): .nodes(context.values(of: name))
        case .lastSaved(let name): .nodes(context.lastSavedValue(of: name).map { [$0] } ?? [])
        case .variable: .string("")
        case .path(let isAbsolute, let steps): path(isAbsolute: isAbsolute, steps: steps)
        case .filter(let primary, let predicates, let steps): filter(primary, predicates: predicates, steps: steps)
        case .negate(let operand): .number(-number(evaluate(operand)))
        case .binary(let operation, let left, let right): binary(operation, left, right)
        case .union(let left, let right): .nodes(strings(of: evaluate(left)) + strings(of: evaluate(right)))
        case .call(let call): self.call(call)
        }
    }

    // MARK: - Conversions

    /// XPath `number()` with ODK's dates, reading local date-times in the context's time zone.
    func number(_ value: ExpressionValue) -> Double {
        value.number(timeZone: timeZone)
    }

    /// A node-set's values, or any other value as one.
    func strings(of value: ExpressionValue) -> [String] {
        if case .nodes(let nodes) = value { nodes } else { [value.stringValue] }
    }

    // MARK: - Operators

    private func binary(_ operation: BinaryOperator, _ left: ExpressionNode, _ right: ExpressionNode) -> ExpressionValue {
        switch operation {
        case .or:
            return .boolean(evaluate(left).booleanValue || evaluate(right).booleanValue)
        case .and:
            return .boolean(evaluate(left).booleanValue && evaluate(right).booleanValue)
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            return .boolean(compare(operation, evaluate(left), evaluate(right)))
        case .add, .subtract, .multiply, .divide, .modulo:
            let a = number(evaluate(left))
            let b = number(evaluate(right))
            switch operation {
            case .add: return .number(a + b)
            case .subtract: return .number(a - b)
            case .multiply: return .number(a * b)
            case .divide: return .number(a / b)
            // §3.5: the remainder of truncating division, with the dividend's sign.
            default: return .number(a.truncatingRemainder(dividingBy: b))
            }
        }
    }

    /// XPath 1.0 §3.4: a node-set compares true if any of its nodes does. An empty one reads
    /// as the empty string, as JavaRosa reads it (XPath would compare it false either way):
    /// `${x} != 0` is true where no `x` exists.
    func compare(_ operation: BinaryOperator, _ a: ExpressionValue, _ b: ExpressionValue) -> Bool {
        let a = if case .nodes(let nodes) = a, nodes.isEmpty { ExpressionValue.nodes([""]) } else { a }
        let b = if case .nodes(let nodes) = b, nodes.isEmpty { ExpressionValue.nodes([""]) } else { b }
        switch (a, b) {
        case (.nodes(let left), .nodes(let right)):
            return left.contains { x in right.contains { y in compareAtoms(operation, .string(x), .string(y)) } }
        case (.nodes, .boolean), (.boolean, .nodes):
            return compareAtoms(operation, .boolean(a.booleanValue), .boolean(b.booleanValue))
        case (.nodes(let left), _):
            return left.contains { compareAtoms(operation, .string($0), b) }
        case (_, .nodes(let right)):
            return right.contains { compareAtoms(operation, a, .string($0)) }
        default:
            return compareAtoms(operation, a, b)
        }
    }

    /// `=` and `!=` compare as booleans if either side is one, else as numbers if either is a
    /// number (or, for ODK, a date), else as strings; `<` and the others always as numbers.
    private func compareAtoms(_ operation: BinaryOperator, _ a: ExpressionValue, _ b: ExpressionValue) -> Bool {
        switch operation {
        case .equal, .notEqual:
            let equal: Bool
            if a.isBoolean || b.isBoolean {
                equal = a.booleanValue == b.booleanValue
            } else if a.isNumeric || b.isNumeric {
                equal = number(a) == number(b)
            } else {
                equal = a.stringValue == b.stringValue
            }
            return operation == .equal ? equal : !equal
        default:
            let x = number(a)
            let y = number(b)
            switch operation {
            case .less: return x < y
            case .lessOrEqual: return x <= y
            case .greater: return x > y
            default: return x >= y
            }
        }
    }

    // MARK: - Paths

    /// Forms only reach `.` and questions by name, so a path reads as its last named step, looked
    /// up through `pathValues(of:)`; a number predicate on that step picks one of its nodes, and
    /// predicates on a step naming a repeat pick its instances (`selectThroughRepeat`).
    private func path(isAbsolute: Bool, steps: [LocationStep]) -> ExpressionValue {
        if !isAbsolute, steps.allSatisfy(\.isSelf) { return .nodes([context.contextNodeValue]) }
        if !isAbsolute, let item = context.instanceItem { return itemPath(item, steps: steps) }
        // `/data/@id`: an attribute of the form's root, as the XForm carries it.
        if isAbsolute, steps.count == 2, steps[0].selectedName != nil, steps[1].axis == .attribute,
           case .name(let name) = steps[1].test {
            return .nodes(context.rootAttribute(name.split(separator: ":").last.map(String.init) ?? name).map { [$0] } ?? [])
        }
        return select(steps, isAbsolute: isAbsolute)
    }

    private func filter(_ primary: ExpressionNode, predicates: [ExpressionNode], steps: [LocationStep]) -> ExpressionValue {
        if case .call(let call) = primary, call.function == .instance, predicates.isEmpty {
            return instancePath(evaluate(call.arguments[0]).stringValue, steps: steps)
        }
        // `current()/../name`: the form's question, wherever the expression is evaluated.
        if case .call(let call) = primary, call.function == .current, predicates.isEmpty,
           let key = LocationStep.formKey(steps, isAbsolute: false) {
            return .nodes(context.formPathValues(of: key))
        }
        // `${resident}[age > 10]/name` reads as the path `resident[age > 10]/name`.
        if case .reference(let name) = primary, !predicates.isEmpty,
           let selected = selectThroughRepeat([LocationStep(axis: .child, test: .name(name), predicates: predicates)] + steps) {
            return selected
        }
        var base = evaluate(primary)
        if case .nodes(let nodes) = base, !predicates.isEmpty {
            base = .nodes(applying(predicates, to: nodes))
        }
        if steps.allSatisfy(\.isSelf) { return base }
        // After `instance('list')/root`, a name is no question's: no repeat to filter.
        return select(steps, throughRepeats: false)
    }

    private func select(_ steps: [LocationStep], isAbsolute: Bool = false, throughRepeats: Bool = true) -> ExpressionValue {
        if throughRepeats, let selected = selectThroughRepeat(steps) { return selected }
        guard let step = steps.last(where: { $0.selectedName != nil }),
              let key = throughRepeats ? LocationStep.formKey(steps, isAbsolute: isAbsolute) : step.selectedName else {
            // `..` and the like: a node whose value no expression of a form reads.
            return steps.last?.axis == .parent ? .nodes([""]) : .nodes([])
        }
        // From the root, a path reaches the form's questions even inside a predicate.
        let values = isAbsolute ? context.formPathValues(of: key) : context.pathValues(of: key)
        return .nodes(applying(step.predicates, to: values))
    }

    /// `resident[age > 10]/name`, `resident[2]/age`: a step naming a repeat, with predicates,
    /// keeps the instances each predicate holds in (evaluated in that instance, as JavaRosa
    /// does; a number picks by position), and the steps after it read those instances. Nil
    /// when no such step names a repeat the expression is outside of.
    private func selectThroughRepeat(_ steps: [LocationStep]) -> ExpressionValue? {
        guard let index = steps.firstIndex(where: { !$0.predicates.isEmpty && $0.selectedName != nil }),
              let name = steps[index].selectedName,
              var instances = context.repeatInstances(of: name)
        else { return nil }
        for predicate in steps[index].predicates {
            instances = instances.enumerated().filter { position, instance in
                switch ExpressionEvaluator(context: instance).evaluate(predicate) {
                case .number(let number): Double(position + 1) == number
                case let value: value.booleanValue
                }
            }.map(\.element)
        }
        // The repeat's own nodes, or the values of the last question named after it.
        guard let last = steps[(index + 1)...].last(where: { $0.selectedName != nil }), let target = last.selectedName else {
            return .nodes(Array(repeating: "", count: instances.count))
        }
        return .nodes(applying(last.predicates, to: instances.flatMap { $0.values(of: target) }))
    }

    private func applying(_ predicates: [ExpressionNode], to nodes: [String]) -> [String] {
        var nodes = nodes
        for predicate in predicates {
            // §2.4: a number picks the node at that position; other predicates would need each
            // node's own context, which the form does not give, so they keep every node.
            guard case .number(let position) = evaluate(predicate) else { continue }
            if let index = Int(exactly: position), index >= 1, index <= nodes.count {
                nodes = [nodes[index - 1]]
            } else {
                nodes = []
            }
        }
        return nodes
    }
}
