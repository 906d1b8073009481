/// One change to an `ObservableList`: at `position`, `removed` elements went
/// and `added` came in their place. A move is a removal and an insertion.
public struct ListChange: Sendable, Hashable {
    public let position: Int
    public let removed: Int
    public let added: Int

    public init(position: Int, removed: Int, added: Int) {
        self.position = position
        self.removed = removed
        self.added = added
    }
}

/// An ordered collection whose changes are observed as minimal ranges, for
/// a list view that shows it a row per element (`ListView` in the GTK layer).
///
/// ```swift
/// let names = ObservableList(["Ada", "Grace"])
/// names.observeChanges { change in print(change) }.store(in: bag)
/// names.insert("Edsger", at: 0)   // ListChange(position: 0, removed: 0, added: 1)
/// ```
@MainActor
public final class ObservableList<Element> {
    /// The elements, in order.
    public private(set) var elements: [Element]
    private var observers: [UInt64: (ListChange) -> Void] = [:]
    private var nextObserverID: UInt64 = 0

    public init(_ elements: [Element] = []) {
        self.elements = elements
    }

    public var count: Int { elements.count }

    /// The element at `position`; replacing it is a change of one.
    public subscript(position: Int) -> Element {
        get { elements[position] }
        set { replaceSubrange(position..<position + 1, with: [newValue]) }
    }

    public func append(_ element: Element) {
        insert(element, at: elements.count)
    }

    public func insert(_ element: Element, at position: Int) {
        replaceSubrange(position..<position, with: [element])
    }

    @discardableResult
    public func remove(at position: Int) -> Element {
        let element = elements[position]
        replaceSubrange(position..<position + 1, with: [])
        return element
    }

    /// Moves the element at `source` to `destination` (its position after
    /// the move): two changes, its removal and its insertion.
    public func move(from source: Int, to destination: Int) {
        guard source != destination else { return }
        let element = remove(at: source)
        insert(element, at: destination)
    }

    /// Replaces every element: one change, however many there are.
    public func replaceAll(with newElements: [Element]) {
        replaceSubrange(0..<elements.count, with: newElements)
    }

    /// Replaces `range` with `newElements` and reports it as one change.
    public func replaceSubrange(_ range: Range<Int>, with newElements: [Element]) {
        precondition(range.lowerBound >= 0 && range.upperBound <= elements.count, "range \(range) outside 0..<\(elements.count)")
        guard !(range.isEmpty && newElements.isEmpty) else { return }
        elements.replaceSubrange(range, with: newElements)
        let change = ListChange(position: range.lowerBound, removed: range.count, added: newElements.count)
        for observer in observers.values { observer(change) }
    }

    /// Calls `handler` after each change, until the token ends.
    public func observeChanges(_ handler: @escaping (ListChange) -> Void) -> ObservationToken {
        nextObserverID += 1
        let id = nextObserverID
        observers[id] = handler
        return ObservationToken { [weak self] in self?.observers[id] = nil }
    }
}
