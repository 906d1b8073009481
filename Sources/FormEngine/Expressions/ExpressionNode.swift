/// A node of a parsed expression's syntax tree.
indirect enum ExpressionNode: Sendable {
    case literal(String)
    case number(Double)
    /// XLSForm's `${name}`.
    case reference(String)
    /// XLSForm's `${last-saved#name}`: the question's answer in the response
    /// last saved to the form (pyxform's `instance('__last-saved')`).
    case lastSaved(String)
    /// `$name`; forms have no variables, so it reads as "".
    case variable(String)
    /// A location path: `.`, `..`, `/data/a`, `../x`, `name[1]`, `@attr`, `child::*`.
    case path(isAbsolute: Bool, steps: [LocationStep])
    /// A primary expression with predicates and steps after it: `${r}[2]`, `current()/../x`.
    case filter(ExpressionNode, predicates: [ExpressionNode], steps: [LocationStep])
    case negate(ExpressionNode)
    case binary(BinaryOperator, ExpressionNode, ExpressionNode)
    case union(ExpressionNode, ExpressionNode)
    case call(FunctionCall)
}

/// XPath's binary operators, from `or` (weakest) to `mod`.
enum BinaryOperator: Sendable {
    case or, and
    case equal, notEqual
    case less, lessOrEqual, greater, greaterOrEqual
    case add, subtract
    case multiply, divide, modulo
}
