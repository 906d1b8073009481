import Synchronization

/// One element of a secondary instance: a choice list, or a CSV, XML or
/// GeoJSON file beside the form, as `instance('name')/root/item/…` reads it.
public struct InstanceNode: Sendable, Equatable {
    /// The element's local name.
    public var name: String
    /// The text directly inside it.
    public var text: String
    /// Its attributes, by local name.
    public var attributes: [String: String]
    /// Its child elements in document order.
    public var children: [InstanceNode]

    /// Creates an element.
    public init(name: String, text: String = "", attributes: [String: String] = [:], children: [InstanceNode] = []) {
        self.name = name
        self.text = text
        self.attributes = attributes
        self.children = children
    }

    /// XPath's string value: its text and every descendant's, in order.
    public var stringValue: String {
        children.isEmpty ? text : text + children.map(\.stringValue).joined()
    }

    /// The text of the first child named `name`, if it has one.
    public func value(of name: String) -> String? {
        children.first { $0.name == name }?.stringValue
    }

    /// An `<item>` of flat fields, as CSV rows and choices become.
    static func item(_ fields: [(String, String)]) -> InstanceNode {
        InstanceNode(name: "item", children: fields.map { InstanceNode(name: $0.0, text: $0.1) })
    }
}

/// A read-only document a form's expressions reach through `instance('id')`.
///
/// Lists can be long (a district list of 100,000 rows), so a predicate that
/// compares a field with a value, `item[name = ${district}]`, is answered from
/// an index built the first time it is asked, not by scanning every item.
public final class SecondaryInstance: Sendable {
    /// The instance's id, as `instance('…')` names it.
    public let id: String
    /// Its document element (`<root>` for lists).
    public let root: InstanceNode
    /// By the path of element names to a node-set's parent (`root/item`) and a
    /// field name: each value's positions among those elements.
    private let indexes = Mutex<[String: [String: [Int]]]>([:])

    /// Creates an instance around its document element.
    public init(id: String, root: InstanceNode) {
        self.id = id
        self.root = root
    }

    /// The items of a list instance: the document element's children.
    public var items: [InstanceNode] { root.children }

    /// The positions among `elements` (reached by `path`) whose child `field`
    /// has the text `value`, ascending.
    func positions(in elements: [InstanceNode], path: String, field: String, equalTo value: String) -> [Int] {
        let key = path + "\u{1F}" + field
        if let index = indexes.withLock({ $0[key] }) { return index[value] ?? [] }
        var built: [String: [Int]] = [:]
        for (position, element) in elements.enumerated() {
            for child in element.children where child.name == field {
                let value = child.stringValue
                if built[value]?.last != position { built[value, default: []].append(position) }
            }
        }
        indexes.withLock { $0[key] = built }
        return built[value] ?? []
    }
}
