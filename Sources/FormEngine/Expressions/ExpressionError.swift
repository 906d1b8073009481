/// A syntax error in a form expression, with where it was found.
public struct ExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `unexpected ')' at 7` or `unknown function foo()`.
    public let message: String
    /// The offset in the expression's source, counted in Unicode scalars from 0.
    public let offset: Int

    /// Creates an error.
    public init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// The message.
    public var description: String { message }
}
