/// One step of a location path.
struct LocationStep: Sendable {
    enum Axis: String, Sendable {
        case ancestor, ancestorOrSelf = "ancestor-or-self", attribute, child, descendant
        case descendantOrSelf = "descendant-or-self", following, followingSibling = "following-sibling"
        case namespace, parent, preceding, precedingSibling = "preceding-sibling", `self`
    }

    enum NodeTest: Sendable {
        /// A QName, `*` or `prefix:*`.
        case name(String)
        /// `node()`, `text()`, `comment()`, `processing-instruction()`.
        case type(String)
    }

    var axis: Axis
    var test: NodeTest
    var predicates: [ExpressionNode] = []

    /// `.`
    var isSelf: Bool {
        if axis == .self, case .type("node") = test { true } else { false }
    }

    /// The local name a named child step selects, or nil for `.`, `..`, `*`, attributes and such.
    var selectedName: String? {
        guard axis == .child || axis == .descendant || axis == .descendantOrSelf || axis == .self,
              case .name(let name) = test
        else { return nil }
        let local = name.split(separator: ":", maxSplits: 1).last.map(String.init) ?? name
        return local == "*" ? nil : local
    }
}
