public import Foundation

/// An XML document as a tree: elements with their attributes and their
/// content in order, text and elements mixed (an XForm's label is text with
/// `<output>` elements inside it). Forms and their data files (XForms,
/// `xml-external` files) are read into it.
///
/// Read with the workbook's own scanner, bounded by `FormLimits` like any
/// form file: a form comes from a server or a colleague, not from us. Public
/// for the OpenRosa client's form lists, manifests and server answers: one
/// XML reader for everything the app is handed.
public struct XMLTree: Sendable {
    /// The name without its prefix (`h:html` → `html`).
    public var name: String
    /// Attributes by name as written (`jr:count`, `nodeset`).
    public var attributes: [String: String]
    /// Their names in the order written: pyxform writes a note's bind
    /// `readonly` first, a read-only text's `type` first.
    public var attributeOrder: [String] = []
    public var content: [Content] = []

    public enum Content: Sendable {
        case text(String)
        case element(XMLTree)
    }

    /// The child elements, in order.
    public var children: [XMLTree] {
        content.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// The first child element named `name`.
    public func child(_ name: String) -> XMLTree? {
        for case .element(let element) in content where element.name == name { return element }
        return nil
    }

    /// Every child element named `name`.
    public func children(_ name: String) -> [XMLTree] {
        children.filter { $0.name == name }
    }

    /// The text directly inside it and inside its children, in order.
    public var text: String {
        content.map {
            switch $0 {
            case .text(let text): text
            case .element(let element): element.text
            }
        }.joined()
    }

    /// The attribute written `name`, or without a prefix when `name` has none
    /// and only a prefixed one is there (`jr:constraintMsg` for `constraintMsg`).
    public subscript(_ name: String) -> String? {
        if let value = attributes[name] { return value }
        guard !name.contains(":") else { return nil }
        return attributes.first { $0.key.hasSuffix(":" + name) }?.value
    }

    /// Reads `data` as XML; nil when it is not well-formed.
    public static func parse(_ data: Data) throws(LimitExceeded) -> XMLTree? {
        let root = try XMLScanner.scan(data) { scanner -> XMLTree? in
            var stack: [XMLTree] = []
            var finished: XMLTree?
            var elements = 0
            var textBytes = 0
            while let event = try scanner.next() {
                switch event {
                case .start(let name, let attributes, let isEmpty):
                    elements += 1
                    guard elements <= FormLimits.xmlElements else {
                        throw LimitExceeded("it holds more than \(FormLimits.xmlElements) elements")
                    }
                    let written = scanner.attributes(in: attributes)
                    let element = XMLTree(
                        name: scanner.text(scanner.localName(name)),
                        attributes: Dictionary(written.map { ($0.name, $0.value) }) { first, _ in first },
                        attributeOrder: written.map(\.name)
                    )
                    if isEmpty { close(element, into: &stack, finished: &finished) } else { stack.append(element) }
                case .end:
                    guard let element = stack.popLast() else { return nil }
                    close(element, into: &stack, finished: &finished)
                case .text(let range, let isCDATA):
                    guard !stack.isEmpty else { continue }
                    textBytes += range.count
                    guard textBytes <= FormLimits.fileBytes else { throw LimitExceeded("its text is too long") }
                    let text = scanner.text(range, isCDATA: isCDATA)
                    if case .text(let before)? = stack[stack.count - 1].content.last {
                        stack[stack.count - 1].content[stack[stack.count - 1].content.count - 1] = .text(before + text)
                    } else {
                        stack[stack.count - 1].content.append(.text(text))
                    }
                }
            }
            return stack.isEmpty ? finished : nil
        }
        return root ?? nil
    }

    private static func close(_ element: XMLTree, into stack: inout [XMLTree], finished: inout XMLTree?) {
        if stack.isEmpty { finished = element } else { stack[stack.count - 1].content.append(.element(element)) }
    }
}
