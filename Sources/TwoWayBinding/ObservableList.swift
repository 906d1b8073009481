/// An ordered collection whose changes are observed as minimal ranges, for
/// a list view that shows it a row per element (`ListView` in the GTK layer).
///
/// ```swift
/// let names = ObservableList(["Ada", "Grace"])
/// names.observeChanges { change in print(change) }.store(in: bag)
/// names.insert("Edsger", at: 0)   // Change(position: 0, removed: 0, added: 1)
/// ```
///
/// An insertion or removal anywhere costs about the same in a list of 100
/// as in one of 100,000: the elements are kept in chunks of at most
/// `ChunkedElements.chunkLimit`, so a change moves one chunk's elements, not
/// every element after it. Reading an element by position is a binary
/// search over the chunks.
@MainActor
public final class ObservableList<Element>: @MainActor RandomAccessCollection {
    /// One change to an `ObservableList`: at `position`, `removed` elements went
    /// and `added` came in their place. A move is a removal and an insertion.
    public struct Change: Sendable, Hashable {
        /// Where the change starts.
        public let position: Int
        /// How many elements went from `position` on.
        public let removed: Int
        /// How many elements came in at `position`.
        public let added: Int

        /// A change of `removed` elements for `added` at `position`.
        public init(position: Int, removed: Int, added: Int) {
            self.position = position
            self.removed = removed
            self.added = added
        }
    }

    private var storage: ChunkedElements<Element>
    private var observers: [UInt64: (Change) -> Void] = [:]
    private var nextObserverID: UInt64 = 0

    /// A list holding `elements`, with no observer.
    public init(_ elements: [Element] = []) {
        storage = ChunkedElements(elements)
    }

    /// The elements, in order, as an array (made on each call).
    public var elements: [Element] { storage.array }

    /// The number of elements.
    public var count: Int { storage.count }
    /// The first position: always 0.
    public var startIndex: Int { 0 }
    /// The position after the last element.
    public var endIndex: Int { storage.count }

    /// The element at `position`; replacing it is a change of one.
    public subscript(position: Int) -> Element {
        get { storage[position] }
        set { replaceSubrange(position..<position + 1, with: [newValue]) }
    }

    /// Adds `element` at the end; a change of one.
    public func append(_ element: Element) {
        insert(element, at: count)
    }

    /// Inserts `element` at `position`; a change of one.
    public func insert(_ element: Element, at position: Int) {
        replaceSubrange(position..<position, with: [element])
    }

    /// Removes and returns the element at `position`; a change of one.
    @discardableResult
    public func remove(at position: Int) -> Element {
        let element = storage[position]
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
        replaceSubrange(0..<count, with: newElements)
    }

    /// Replaces `range` with `newElements` and reports it as one change.
    public func replaceSubrange(_ range: Range<Int>, with newElements: [Element]) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range \(range) outside 0..<\(count)")
        guard !(range.isEmpty && newElements.isEmpty) else { return }
        storage.replaceSubrange(range, with: newElements)
        let change = Change(position: range.lowerBound, removed: range.count, added: newElements.count)
        for observer in observers.values { observer(change) }
    }

    /// Calls `handler` after each change, until the token ends.
    public func observeChanges(_ handler: @escaping (Change) -> Void) -> ObservationToken {
        nextObserverID += 1
        let id = nextObserverID
        observers[id] = handler
        return ObservationToken { [weak self] in self?.observers[id] = nil }
    }
}

extension ObservableList where Element: Equatable {
    /// Makes the list hold `newElements` as one change of only the stretch
    /// that differs: the elements equal at the start and at the end stay, so
    /// a list view keeps their rows as they are. For a list read again of
    /// which a few elements changed; nothing is reported when none did.
    public func update(to newElements: [Element]) {
        let (start, end) = storage.sharedEnds(with: newElements, equal: ==)
        replaceSubrange(start..<count - end, with: Array(newElements[start..<newElements.count - end]))
    }
}

/// A sequence of elements kept in chunks, so that inserting or removing
/// moves at most one chunk's elements, plus one integer per chunk after it.
struct ChunkedElements<Element> {
    /// The most elements one chunk holds; a chunk that grows past it is
    /// split in two.
    static var chunkLimit: Int { 512 }

    private var chunks: [[Element]] = []
    /// `starts[k]`: the position of `chunks[k]`'s first element.
    private var starts: [Int] = []
    private(set) var count = 0

    init(_ elements: [Element]) {
        chunks = Self.halfFullChunks(of: elements[...])
        count = elements.count
        recountStarts(from: 0)
    }

    var array: [Element] { Array(chunks.joined()) }

    subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "position \(position) outside 0..<\(count)")
        let chunk = chunk(holding: position)
        return chunks[chunk][position - starts[chunk]]
    }

    mutating func replaceSubrange(_ range: Range<Int>, with newElements: [Element]) {
        if range.lowerBound == count && !chunks.isEmpty && chunks[chunks.count - 1].count + newElements.count <= Self.chunkLimit {
            // Appending to the last chunk, the common case of a growing list.
            chunks[chunks.count - 1].append(contentsOf: newElements)
            count += newElements.count
            return
        }
        // Every element replaced (this also covers an empty list).
        if range == 0..<count {
            self = ChunkedElements(newElements)
            return
        }
        // The chunks the range touches: from the one holding its first
        // element (or the last, for the end) to the one holding its last.
        let first = range.lowerBound == count ? chunks.count - 1 : chunk(holding: range.lowerBound)
        let last = range.isEmpty ? first : chunk(holding: range.upperBound - 1)
        let lower = range.lowerBound - starts[first], upper = range.upperBound - starts[last]
        if first == last {
            chunks[first].replaceSubrange(lower..<upper, with: newElements)
        } else {
            var merged = Array(chunks[first][..<lower])
            merged.append(contentsOf: newElements)
            merged.append(contentsOf: chunks[last][upper...])
            chunks.replaceSubrange(first...last, with: [merged])
        }
        count += newElements.count - range.count
        // A chunk grown past the limit is cut into half-full pieces; an
        // empty one goes.
        if chunks[first].count > Self.chunkLimit {
            chunks.replaceSubrange(first...first, with: Self.halfFullChunks(of: chunks[first][...]))
        } else if chunks[first].isEmpty {
            chunks.remove(at: first)
        }
        recountStarts(from: first)
    }

    /// How many elements at the start, and then at the end, equal
    /// `other`'s in the same places; the two stretches never overlap.
    func sharedEnds(with other: [Element], equal: (Element, Element) -> Bool) -> (start: Int, end: Int) {
        let most = Swift.min(count, other.count)
        var start = 0
        fromStart: for chunk in chunks {
            for element in chunk {
                guard start < most, equal(element, other[start]) else { break fromStart }
                start += 1
            }
        }
        var end = 0
        fromEnd: for chunk in chunks.reversed() {
            for element in chunk.reversed() {
                guard start + end < most, equal(element, other[other.count - 1 - end]) else { break fromEnd }
                end += 1
            }
        }
        return (start, end)
    }

    /// `elements` cut into chunks half the limit long, so that each has room
    /// to grow before it is split again.
    private static func halfFullChunks(of elements: ArraySlice<Element>) -> [[Element]] {
        let piece = chunkLimit / 2
        return stride(from: elements.startIndex, to: elements.endIndex, by: piece).map {
            Array(elements[$0 ..< min($0 + piece, elements.endIndex)])
        }
    }

    private mutating func recountStarts(from first: Int) {
        starts.removeSubrange(min(first, starts.count)...)
        var position = first == 0 ? 0 : starts[first - 1] + chunks[first - 1].count
        for chunk in chunks[first...] {
            starts.append(position)
            position += chunk.count
        }
    }

    /// The chunk holding `position`: the last whose start is at or before it.
    private func chunk(holding position: Int) -> Int {
        var low = 0, high = starts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= position { low = middle } else { high = middle }
        }
        return low
    }
}
