import XCTest
import TwoWayBinding

/// An ordered collection reporting each change as one minimal range.
final class ObservableListTests: XCTestCase {
    @MainActor func testEachChangeIsOneRange() async {
        let list = ObservableList(["a", "b", "c"])
        var changes: [ObservableList<String>.Change] = []
        let token = list.observeChanges { changes.append($0) }

        list.insert("x", at: 1)
        list.append("z")
        list.remove(at: 0)
        list[0] = "y"
        list.replaceAll(with: ["1", "2"])
        XCTAssertEqual(list.elements, ["1", "2"])
        XCTAssertEqual(changes, [
            ObservableList<String>.Change(position: 1, removed: 0, added: 1),
            ObservableList<String>.Change(position: 4, removed: 0, added: 1),
            ObservableList<String>.Change(position: 0, removed: 1, added: 0),
            ObservableList<String>.Change(position: 0, removed: 1, added: 1),
            ObservableList<String>.Change(position: 0, removed: 4, added: 2),
        ])

        token.cancel()
        list.append("3")
        XCTAssertEqual(changes.count, 5, "a cancelled observer hears nothing more")
    }

    @MainActor func testAnUpdate_isOneChangeOfOnlyTheStretchThatDiffers() async {
        // Across chunks of at most 512, so that both ends are found through several.
        let count = 1_543
        let list = ObservableList(Array(0..<count))
        var changes: [ObservableList<Int>.Change] = []
        let token = list.observeChanges { changes.append($0) }
        defer { token.cancel() }

        var changed = Array(0..<count)
        changed[700] = -1
        changed[900] = -2
        list.update(to: changed)
        XCTAssertEqual(list.elements, changed)
        list.update(to: changed)
        XCTAssertEqual(changes, [.init(position: 700, removed: 201, added: 201)], "the same elements again: no change")

        changes = []
        list.update(to: Array(changed.dropLast(5)) + [1, 2])
        XCTAssertEqual(changes, [.init(position: count - 5, removed: 5, added: 2)], "a changed end")
        changes = []
        list.update(to: [99] + list.elements)
        XCTAssertEqual(changes, [.init(position: 0, removed: 0, added: 1)], "one new at the top")
        changes = []
        list.update(to: [])
        list.update(to: [1, 1])
        list.update(to: [1, 1, 1])
        XCTAssertEqual(changes.map(\.added), [0, 2, 1])
        XCTAssertEqual(changes.last, .init(position: 2, removed: 0, added: 1), "shared ends never overlap")
        XCTAssertEqual(list.elements, [1, 1, 1])
    }

    @MainActor func testAMoveIsARemovalAndAnInsertion() async {
        let list = ObservableList([0, 1, 2, 3])
        var changes: [ObservableList<Int>.Change] = []
        let token = list.observeChanges { changes.append($0) }
        defer { token.cancel() }
        list.move(from: 0, to: 2)
        XCTAssertEqual(list.elements, [1, 2, 0, 3])
        XCTAssertEqual(changes, [.init(position: 0, removed: 1, added: 0), .init(position: 2, removed: 0, added: 1)])
        list.move(from: 1, to: 1)
        list.replaceSubrange(2..<2, with: [])
        XCTAssertEqual(changes.count, 2, "no change, no report")
    }
}
