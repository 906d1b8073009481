/// One token of XPath 1.0's lexical structure (§3.7), plus XLSForm's `${name}`.
struct ExpressionToken: Equatable {
    enum Kind: Equatable {
        case leftParenthesis, rightParenthesis, leftBracket, rightBracket
        case dot, dotDot, at, comma, doubleColon
        case slash, doubleSlash, pipe, plus, minus
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
        case multiply, and, or, div, mod
        /// A QName, `*` or `prefix:*` where a node test is expected.
        case nameTest(String)
        /// `node`, `text`, `comment` or `processing-instruction` before `(`.
        case nodeType(String)
        case functionName(String)
        case axisName(String)
        case literal(String)
        case number(Double)
        /// XLSForm's `${name}`.
        case reference(String)
        /// XLSForm's `${last-saved#name}`: the last saved response's answer.
        case lastSaved(String)
        /// `$name`.
        case variable(String)
        case end
    }

    var kind: Kind
    /// Where it starts, in Unicode scalars.
    var offset: Int
    /// As written, for error messages.
    var text: String

    /// Whether it is one of XPath's Operator tokens, after which a name is a name again.
    var isOperator: Bool {
        switch kind {
        case .and, .or, .div, .mod, .multiply, .slash, .doubleSlash, .pipe, .plus, .minus,
             .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            true
        default:
            false
        }
    }
}
