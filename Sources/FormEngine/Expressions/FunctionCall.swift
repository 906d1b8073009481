/// A function call, resolved to its implementation when parsed.
struct FunctionCall: Sendable {
    var function: ExpressionFunction
    var name: String
    var arguments: [ExpressionNode]
    /// `regex()`'s pattern, compiled once when it is a literal.
    var pattern: CompiledPattern?
}
