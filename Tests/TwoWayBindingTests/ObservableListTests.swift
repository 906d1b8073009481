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
