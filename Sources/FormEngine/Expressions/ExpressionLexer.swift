/// Splits an expression into tokens, resolving XPath's ambiguities (§3.7): `*` and `and`,
/// `or`, `div`, `mod` are operators only where an operator may follow, and `-` continues a name.
struct ExpressionLexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private(set) var tokens: [ExpressionToken] = []
    /// Names written as `${name}`, also inside string literals, each once, in order.
    private(set) var references: [String] = []
    private var seenReferences: Set<String> = []

    init(_ source: String) {
        scalars = Array(source.unicodeScalars)
    }

    mutating func tokenize() throws(ExpressionError) {
        while true {
            skipWhitespace()
            guard index < scalars.count else {
                tokens.append(ExpressionToken(kind: .end, offset: index, text: ""))
                return
            }
            tokens.append(try nextToken())
        }
    }

    // MARK: - Tokens

    private mutating func nextToken() throws(ExpressionError) -> ExpressionToken {
        let start = index
        let scalar = scalars[index]
        func token(_ kind: ExpressionToken.Kind, length: Int) -> ExpressionToken {
            index = start + length
            return ExpressionToken(kind: kind, offset: start, text: text(from: start, to: index))
        }
        switch scalar {
        case "(": return token(.leftParenthesis, length: 1)
        case ")": return token(.rightParenthesis, length: 1)
        case "[": return token(.leftBracket, length: 1)
        case "]": return token(.rightBracket, length: 1)
        case "@": return token(.at, length: 1)
        case ",": return token(.comma, length: 1)
        case "|": return token(.pipe, length: 1)
        case "+": return token(.plus, length: 1)
        case "-": return token(.minus, length: 1)
        case "=": return token(.equal, length: 1)
        case "<": return peek(1) == "=" ? token(.lessOrEqual, length: 2) : token(.less, length: 1)
        case ">": return peek(1) == "=" ? token(.greaterOrEqual, length: 2) : token(.greater, length: 1)
        case "/": return peek(1) == "/" ? token(.doubleSlash, length: 2) : token(.slash, length: 1)
        case "!":
            guard peek(1) == "=" else { throw ExpressionError("unexpected '!' at \(start)", at: start) }
            return token(.notEqual, length: 2)
        case ":":
            guard peek(1) == ":" else { throw ExpressionError("unexpected ':' at \(start)", at: start) }
            return token(.doubleColon, length: 2)
        case "*":
            return token(operatorExpected ? .multiply : .nameTest("*"), length: 1)
        case "'", "\"":
            return try literal(quote: scalar)
        case "$":
            return try peek(1) == "{" ? reference() : variable()
        case ".":
            if let next = peek(1), isDigit(next) { return number() }
            return peek(1) == "." ? token(.dotDot, length: 2) : token(.dot, length: 1)
        case _ where isDigit(scalar):
            return number()
        case _ where isNameStart(scalar):
            return try name()
        default:
            throw ExpressionError("unexpected '\(Character(scalar))' at \(start)", at: start)
        }
    }

    /// §3.7: an operator is expected after anything but `@ :: ( [ ,` and the operators.
    private var operatorExpected: Bool {
        guard let previous = tokens.last else { return false }
        switch previous.kind {
        case .at, .doubleColon, .leftParenthesis, .leftBracket, .comma: return false
        default: return !previous.isOperator
        }
    }

    private mutating func number() -> ExpressionToken {
        let start = index
        while index < scalars.count, isDigit(scalars[index]) { index += 1 }
        if index < scalars.count, scalars[index] == "." {
            index += 1
            while index < scalars.count, isDigit(scalars[index]) { index += 1 }
        }
        let text = text(from: start, to: index)
        return ExpressionToken(kind: .number(Double(text) ?? .nan), offset: start, text: text)
    }

    private mutating func literal(quote: Unicode.Scalar) throws(ExpressionError) -> ExpressionToken {
        let start = index
        index += 1
        while index < scalars.count, scalars[index] != quote { index += 1 }
        guard index < scalars.count else {
            throw ExpressionError("unterminated string at \(start)", at: start)
        }
        let content = text(from: start + 1, to: index)
        index += 1
        collectReferences(inLiteral: start + 1..<index - 1)
        return ExpressionToken(kind: .literal(content), offset: start, text: text(from: start, to: index))
    }

    /// `${name}` inside a literal still names a question to pyxform (`jr:choice-name(${s}, '${s}')`).
    private mutating func collectReferences(inLiteral range: Range<Int>) {
        var position = range.lowerBound
        while position + 1 < range.upperBound {
            defer { position += 1 }
            guard scalars[position] == "$", scalars[position + 1] == "{" else { continue }
            var end = position + 2
            while end < range.upperBound, scalars[end] != "}" { end += 1 }
            guard end < range.upperBound else { return }
            let name = text(from: position + 2, to: end)
            if isNCName(name) { addReference(name) }
            position = end
        }
    }

    private mutating func reference() throws(ExpressionError) -> ExpressionToken {
        let start = index
        var end = index + 2
        while end < scalars.count, scalars[end] != "}" { end += 1 }
        guard end < scalars.count else {
            throw ExpressionError("unterminated ${ at \(start)", at: start)
        }
        let name = text(from: start + 2, to: end)
        guard !name.isEmpty else { throw ExpressionError("empty ${} at \(start)", at: start) }
        if name.hasPrefix("last-saved#"), case let saved = String(name.dropFirst("last-saved#".count)), isNCName(saved) {
            // Another response's answer: no dependency on this one's.
            index = end + 1
            return ExpressionToken(kind: .lastSaved(saved), offset: start, text: text(from: start, to: index))
        }
        guard isNCName(name) else {
            throw ExpressionError("invalid question name '\(name)' in ${} at \(start)", at: start)
        }
        index = end + 1
        addReference(name)
        return ExpressionToken(kind: .reference(name), offset: start, text: text(from: start, to: index))
    }

    private mutating func variable() throws(ExpressionError) -> ExpressionToken {
        let start = index
        index += 1
        guard index < scalars.count, isNameStart(scalars[index]) else {
            throw ExpressionError("expected a variable name after '$' at \(start)", at: start)
        }
        let name = try qualifiedName()
        return ExpressionToken(kind: .variable(name), offset: start, text: text(from: start, to: index))
    }

    private mutating func name() throws(ExpressionError) -> ExpressionToken {
        let start = index
        let name = try qualifiedName()
        let text = text(from: start, to: index)
        if operatorExpected {
            switch name {
            case "and": return ExpressionToken(kind: .and, offset: start, text: text)
            case "or": return ExpressionToken(kind: .or, offset: start, text: text)
            case "div": return ExpressionToken(kind: .div, offset: start, text: text)
            case "mod": return ExpressionToken(kind: .mod, offset: start, text: text)
            default: break
            }
        }
        // What follows, past whitespace, decides between function, node type, axis and name.
        var next = index
        while next < scalars.count, isWhitespace(scalars[next]) { next += 1 }
        let kind: ExpressionToken.Kind
        if next < scalars.count, scalars[next] == "(" {
            let nodeTypes: Set = ["node", "text", "comment", "processing-instruction"]
            kind = nodeTypes.contains(name) ? .nodeType(name) : .functionName(name)
        } else if next + 1 < scalars.count, scalars[next] == ":", scalars[next + 1] == ":" {
            kind = .axisName(name)
        } else {
            kind = .nameTest(name)
        }
        return ExpressionToken(kind: kind, offset: start, text: text)
    }

    /// NCName, `prefix:local` or `prefix:*`.
    private mutating func qualifiedName() throws(ExpressionError) -> String {
        let start = index
        scanNCName()
        if index + 1 < scalars.count, scalars[index] == ":", scalars[index + 1] != ":" {
            if scalars[index + 1] == "*" {
                index += 2
            } else if isNameStart(scalars[index + 1]) {
                index += 1
                scanNCName()
            } else {
                throw ExpressionError("unexpected ':' at \(index)", at: index)
            }
        }
        return text(from: start, to: index)
    }

    private mutating func scanNCName() {
        index += 1
        while index < scalars.count, isNameCharacter(scalars[index]) { index += 1 }
    }

    private mutating func addReference(_ name: String) {
        if seenReferences.insert(name).inserted { references.append(name) }
    }

    // MARK: - Characters

    private func peek(_ distance: Int) -> Unicode.Scalar? {
        index + distance < scalars.count ? scalars[index + distance] : nil
    }

    private func text(from start: Int, to end: Int) -> String {
        var string = ""
        string.unicodeScalars.append(contentsOf: scalars[start..<end])
        return string
    }

    private mutating func skipWhitespace() {
        while index < scalars.count, isWhitespace(scalars[index]) { index += 1 }
    }

    private func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    private func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }
}

/// XML's NCName, as questions are named.
func isNCName(_ name: String) -> Bool {
    var scalars = name.unicodeScalars.makeIterator()
    guard let first = scalars.next(), isNameStart(first) else { return false }
    while let scalar = scalars.next() {
        guard isNameCharacter(scalar) else { return false }
    }
    return true
}

func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        || (scalar.value > 0x7F && scalar.properties.isAlphabetic)
}

func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
    if isNameStart(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "." {
        return true
    }
    guard scalar.value > 0x7F else { return false }
    switch scalar.properties.generalCategory {
    case .decimalNumber, .nonspacingMark, .spacingMark, .enclosingMark, .letterNumber: return true
    default: return scalar == "\u{B7}"
    }
}
