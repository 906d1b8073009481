/// Puts XLSForm's `${name}` back where an XForm's expression reaches a
/// question by path, as pyxform wrote `${name}`: ` /data/grp/name ` from the
/// top, ` ../name ` or `current()/../name` between neighbours of a repeat;
/// and `${last-saved#name}` where it reads `instance('__last-saved')/data/…`.
///
/// A path that leads to no question (a secondary instance's, a path with a
/// predicate, `.` itself) is left as written: the engine reads paths too.
enum XFormReferences {
    /// The id pyxform gives the last saved response's instance.
    static let lastSavedInstance = "__last-saved"

    /// `expression` with each path to a known node written `${name}`;
    /// relative paths start from `context`, the node the expression belongs
    /// to (`["data", "grp", "q"]`). `names` maps absolute paths to names.
    /// `lastSaved` is the id of the instance whose `src` is the last saved
    /// response (`jr://instance/last-saved`): pyxform's, unless the form
    /// names it otherwise.
    static func restore(_ expression: String, at context: [String], names: [String: String],
                        lastSaved: String = lastSavedInstance) -> String {
        var lexer = ExpressionLexer(expression)
        guard (try? lexer.tokenize()) != nil else { return expression }
        let tokens = lexer.tokens
        let scalars = Array(expression.unicodeScalars)
        var output = String.UnicodeScalarView()
        var copied = 0
        var index = 0
        while index < tokens.count {
            guard let run = path(in: tokens, from: index, lastSaved: lastSaved) else {
                index += 1
                continue
            }
            defer { index = run.end }
            var steps = run.isAbsolute ? [] : context
            var resolved = true
            for step in run.steps {
                switch step {
                case ".": continue
                case "..":
                    if steps.isEmpty { resolved = false } else { steps.removeLast() }
                default: steps.append(step)
                }
            }
            guard resolved, let name = names["/" + steps.joined(separator: "/")] else { continue }
            let last = tokens[run.end - 1]
            var start = tokens[run.start].offset, end = last.offset + last.text.unicodeScalars.count
            // The two spaces pyxform puts around a path it writes for `${}`.
            if start - 1 >= copied, end < scalars.count, scalars[start - 1] == " ", scalars[end] == " " {
                start -= 1
                end += 1
            }
            output.append(contentsOf: scalars[copied..<start])
            output.append(contentsOf: "${\(run.isLastSaved ? "last-saved#" : "")\(name)}".unicodeScalars)
            copied = end
        }
        output.append(contentsOf: scalars[copied...])
        return String(output)
    }

    private struct Run {
        var start: Int
        var end: Int
        var isAbsolute: Bool
        var steps: [String]
        /// Whether it reads the last saved response's instance, not this one.
        var isLastSaved = false
    }

    /// The location path that starts at `tokens[index]`, if one does there and
    /// it is made of plain steps only (no predicate, axis or function after it).
    private static func path(in tokens: [ExpressionToken], from index: Int, lastSaved: String) -> Run? {
        let previous = index > 0 ? tokens[index - 1].kind : nil
        let startsExpression: Bool = switch previous {
        case nil, .leftParenthesis?, .leftBracket?, .comma?: true
        default: tokens[index - 1].isOperator
        }
        guard startsExpression else { return nil }
        var cursor = index
        var run = Run(start: index, end: index, isAbsolute: false, steps: [])
        switch tokens[index].kind {
        case .slash:
            run.isAbsolute = true
        case .functionName("instance"):
            // pyxform's `${last-saved#name}`: the same path in the last saved response.
            guard tokens.count > index + 4, tokens[index + 1].kind == .leftParenthesis,
                  tokens[index + 2].kind == .literal(lastSaved),
                  tokens[index + 3].kind == .rightParenthesis, tokens[index + 4].kind == .slash else { return nil }
            run.isAbsolute = true
            run.isLastSaved = true
            cursor = index + 4
        case .functionName("current"):
            guard tokens.count > index + 3, tokens[index + 1].kind == .leftParenthesis,
                  tokens[index + 2].kind == .rightParenthesis, tokens[index + 3].kind == .slash else { return nil }
            cursor = index + 3
        case .dotDot:
            run.steps = [".."]
            cursor = index + 1
        case .dot:
            // `.` alone is the node itself, written as such.
            guard tokens.count > index + 1, tokens[index + 1].kind == .slash else { return nil }
            run.steps = ["."]
            cursor = index + 1
        default:
            return nil
        }
        // Steps: `/name`, `/..`, `/.`; the absolute path's first one follows its slash.
        while cursor < tokens.count, tokens[cursor].kind == .slash, cursor + 1 < tokens.count {
            switch tokens[cursor + 1].kind {
            case .nameTest(let name) where name != "*" && !name.contains(":"): run.steps.append(name)
            case .dotDot: run.steps.append("..")
            case .dot: run.steps.append(".")
            default: return nil
            }
            cursor += 2
        }
        guard !run.steps.isEmpty else { return nil }
        // A predicate or a further step of another kind: a path the engine reads as it is.
        if cursor < tokens.count {
            switch tokens[cursor].kind {
            case .leftBracket, .slash, .doubleSlash, .leftParenthesis: return nil
            default: break
            }
        }
        run.end = cursor
        return run
    }
}
