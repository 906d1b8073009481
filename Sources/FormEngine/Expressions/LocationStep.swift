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

extension LocationStep {
    /// The key a path into the form reads its node by: the last name alone
    /// (`age`, `//age`), or, for a path that names more than that, its route:
    /// `/household/age` down from the root (whose own name is left out) or
    /// `../../household/age` up from the row. Rows of one name in several
    /// groups are told apart by the route; `FormPlan.entry(named:near:)`
    /// follows it.
    static func formKey(_ steps: [LocationStep], isAbsolute: Bool) -> String? {
        // A bare name, as choice filters read per choice: no route to make.
        if steps.count == 1 { return steps[0].selectedName }
        var ups = 0
        var names: [String] = []
        for step in steps where !step.isSelf {
            if step.axis == .parent, case .type("node") = step.test, names.isEmpty {
                ups += 1
            } else if step.axis == .child, let name = step.selectedName {
                names.append(name)
            } else {
                return steps.last(where: { $0.selectedName != nil })?.selectedName
            }
        }
        guard let last = names.last else { return nil }
        if isAbsolute {
            return names.count >= 2 ? "/" + names.dropFirst().joined(separator: "/") : last
        }
        return ups > 0 || names.count > 1 ? String(repeating: "../", count: ups) + names.joined(separator: "/") : last
    }
}

