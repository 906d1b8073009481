import Foundation

/// `instance('id')/root/item[…]/field`: paths into a secondary instance.
extension ExpressionEvaluator {
    /// The values the steps after `instance(id)` select. The document node's
    /// one child is the instance's document element, as in XPath.
    func instancePath(_ id: String, steps: [LocationStep]) -> ExpressionValue {
        guard let instance = context.secondaryInstance(id) else { return .nodes([]) }
        return walk(from: [InstanceNode(name: "", children: [instance.root])], steps: steps, in: instance, path: "")
    }

    /// A relative path in a predicate on an item (`name`, `@code`, `a/b`):
    /// the steps from the item.
    func itemPath(_ item: InstanceItem, steps: [LocationStep]) -> ExpressionValue {
        walk(from: [item.node], steps: steps, in: item.instance, path: nil)
    }

    /// The values `steps` select from `start`. `path` is the names of the steps
    /// so far while each selected one parent's children without predicates:
    /// the key of an index over them, or nil.
    private func walk(from start: [InstanceNode], steps: [LocationStep], in instance: SecondaryInstance, path: String?) -> ExpressionValue {
        var nodes = start
        var path = path
        for (number, step) in steps.enumerated() {
            let parentCount = nodes.count
            switch step.axis {
            case .child:
                nodes = nodes.flatMap { $0.children.filter { step.matches($0.name) } }
            case .self:
                if case .name = step.test { nodes = nodes.filter { step.matches($0.name) } }
            case .descendant, .descendantOrSelf:
                nodes = nodes.flatMap { $0.descendants(includingSelf: step.axis == .descendantOrSelf) }
                    .filter { step.matches($0.name) }
                path = nil
            case .attribute:
                guard number == steps.count - 1, case .name(let name) = step.test else { return .nodes([]) }
                let local = name.split(separator: ":").last.map(String.init) ?? name
                return .nodes(nodes.compactMap { local == "*" ? $0.attributes.values.first : $0.attributes[local] })
            default:
                // Instances keep no links to parents or siblings; a form's lists need none.
                return .nodes([])
            }
            if step.axis == .child, parentCount == 1, let known = path, case .name(let name) = step.test {
                path = known + "/" + name
            } else if step.axis != .self {
                path = nil
            }
            for predicate in step.predicates {
                nodes = selecting(nodes, by: predicate, in: instance, path: path)
                path = nil
            }
        }
        return .nodes(nodes.map(\.stringValue))
    }

    /// The nodes a predicate keeps: by position for a number, from the
    /// instance's index for `field = value`, else each tried in turn.
    private func selecting(_ nodes: [InstanceNode], by predicate: ExpressionNode, in instance: SecondaryInstance, path: String?) -> [InstanceNode] {
        if let path, let (field, value) = predicate.indexedComparison {
            let wanted = evaluate(value)
            switch wanted {
            case .string(let text):
                return instance.positions(in: nodes, path: path, field: field, equalTo: text).map { nodes[$0] }
            case .nodes(let texts):
                let positions = Set(texts.flatMap { instance.positions(in: nodes, path: path, field: field, equalTo: $0) })
                return positions.sorted().map { nodes[$0] }
            default:
                // Numbers and booleans compare as numbers and truth values: tried item by item.
                break
            }
        }
        var kept: [InstanceNode] = []
        for (position, node) in nodes.enumerated() {
            let verdict = ExpressionEvaluator<InstanceItemContext<Context>>(
                context: InstanceItemContext(base: context, item: InstanceItem(node: node, instance: instance))
            ).evaluate(predicate)
            if case .number(let number) = verdict {
                if number == Double(position + 1) { kept.append(node) }
            } else if verdict.booleanValue {
                kept.append(node)
            }
        }
        return kept
    }
}

extension ExpressionNode {
    /// `field = value` or `value = field`, where `field` is a child of the
    /// item and `value` reads nothing of it: answered from an index.
    var indexedComparison: (field: String, value: ExpressionNode)? {
        guard case .binary(.equal, let left, let right) = self else { return nil }
        func field(_ node: ExpressionNode) -> String? {
            guard case .path(false, let steps) = node, steps.count == 1, steps[0].axis == .child,
                  steps[0].predicates.isEmpty else { return nil }
            return steps[0].selectedName
        }
        if let name = field(left), right.isItemIndependent { return (name, right) }
        if let name = field(right), left.isItemIndependent { return (name, left) }
        return nil
    }

    /// Such a comparison among `and`ed conditions (or alone): every item
    /// the whole keeps has that field equal to the value.
    var indexableConjunct: (field: String, value: ExpressionNode)? {
        if let found = indexedComparison { return found }
        if case .binary(.and, let left, let right) = self { return left.indexableConjunct ?? right.indexableConjunct }
        return nil
    }
}

extension LocationStep {
    /// Whether an element called `name` passes this step's node test.
    func matches(_ name: String) -> Bool {
        switch test {
        case .name(let wanted):
            let local = wanted.split(separator: ":", maxSplits: 1).last.map(String.init) ?? wanted
            return local == "*" || local == name
        case .type(let type):
            return type == "node"
        }
    }
}

extension InstanceNode {
    /// Every element below, depth first, and itself first if asked.
    func descendants(includingSelf: Bool) -> [InstanceNode] {
        (includingSelf ? [self] : []) + children.flatMap { $0.descendants(includingSelf: true) }
    }
}

extension ExpressionNode {
    /// Whether the expression reads nothing of the node a predicate tries:
    /// no relative path, no position.
    var isItemIndependent: Bool {
        switch self {
        case .literal, .number, .reference, .lastSaved, .variable: true
        case .path(let isAbsolute, _): isAbsolute
        case .filter(let primary, let predicates, _):
            if case .call(let call) = primary, call.function == .current || call.function == .instance {
                call.arguments.allSatisfy(\.isItemIndependent) && predicates.allSatisfy(\.isItemIndependent)
            } else {
                primary.isItemIndependent && predicates.allSatisfy(\.isItemIndependent)
            }
        case .negate(let operand): operand.isItemIndependent
        case .binary(_, let left, let right), .union(let left, let right):
            left.isItemIndependent && right.isItemIndependent
        case .call(let call):
            if call.function == .position || call.function == .last {
                false
            } else if call.arguments.isEmpty, call.function.readsContextNode {
                false
            } else {
                call.arguments.allSatisfy(\.isItemIndependent)
            }
        }
    }
}

extension ExpressionFunction {
    /// Functions that read the context node when called with no argument.
    var readsContextNode: Bool {
        [.string, .stringLength, .normalizeSpace, .number, .position, .last].contains(self)
    }
}

/// An element of a secondary instance that a predicate is trying.
public struct InstanceItem: Sendable {
    /// The element.
    public let node: InstanceNode
    /// The instance it is part of.
    public let instance: SecondaryInstance
}

/// A predicate's view of one item of a secondary instance: relative paths
/// walk the item, `.` is the item, and the rest is the form as before.
struct InstanceItemContext<Base: EvaluationContext>: EvaluationContext {
    let base: Base
    let item: InstanceItem

    func values(of name: String) -> [String] { base.values(of: name) }
    func pathValues(of name: String) -> [String] {
        item.node.children.filter { $0.name == name }.map(\.stringValue)
    }
    func formPathValues(of name: String) -> [String] { base.formPathValues(of: name) }
    var currentValue: String { base.currentValue }
    var contextNodeValue: String { item.node.stringValue }
    var instanceItem: InstanceItem? { item }
    var position: Int? { base.position }
    func indexedRepeatValue(of name: String, repeat: String, index: Int) -> String? {
        base.indexedRepeatValue(of: name, repeat: `repeat`, index: index)
    }
    func choiceLabel(of choice: String, question name: String) -> String? { base.choiceLabel(of: choice, question: name) }
    var now: Date { base.now }
    var timeZone: TimeZone { base.timeZone }
    func rootAttribute(_ name: String) -> String? { base.rootAttribute(name) }
    func secondaryInstance(_ id: String) -> SecondaryInstance? { base.secondaryInstance(id) }
    func itext(_ id: String) -> String? { base.itext(id) }
    func lastSavedValue(of name: String) -> String? { base.lastSavedValue(of: name) }
}

extension ExpressionEvaluator {
    /// `pulldata('file', 'column', 'key-column', key)`: the first row of
    /// `file.csv` whose key column holds `key`, by its index.
    func pulldata(instance id: String, column: String, keyColumn: String, key: String) -> String {
        guard let instance = context.secondaryInstance(id) else { return "" }
        let items = instance.root.children.filter { $0.name == "item" }
        let path = "/" + instance.root.name + "/item"
        guard let first = instance.positions(in: items, path: path, field: keyColumn, equalTo: key).first else { return "" }
        return items[first].value(of: column) ?? ""
    }
}
