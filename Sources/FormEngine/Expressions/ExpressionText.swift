/// Reading an expression's text where parsing it is not needed: its
/// top-level commas, its outermost call's end (an appearance's `search()`,
/// an itemset's `randomize()`).
enum ExpressionText {
    /// Calls `visit` with each character outside quotes and how many
    /// parentheses were open before it, until `visit` returns false.
    static func walk(_ text: Substring, _ visit: (String.Index, Character, Int) -> Bool) {
        var depth = 0
        var quote: Character?
        for index in text.indices {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            if character == "'" || character == "\"" {
                quote = character
                continue
            }
            guard visit(index, character, depth) else { return }
            if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
        }
    }

    /// A call's arguments, split at the commas outside quotes and
    /// parentheses, each without the white space around it.
    static func arguments(_ text: String) -> [String] {
        var arguments: [String] = []
        var start = text.startIndex
        walk(Substring(text)) { index, character, depth in
            if character == ",", depth == 0 {
                arguments.append(String(text[start..<index].trimmingWhitespace()))
                start = text.index(after: index)
            }
            return true
        }
        let last = String(text[start...].trimmingWhitespace())
        if !last.isEmpty || !arguments.isEmpty { arguments.append(last) }
        return arguments
    }
}
