import XCTest
import TwoWayBinding

/// ObservableList keeps its elements in chunks; random changes, some across
/// many chunks, must leave it equal to a plain array changed the same way.
final class ObservableListChunkTests: XCTestCase {
    /// Chunks split, merge and empty out as a plain array would change.
    @MainActor func testRandomChangesAgreeWithAnArray() async {
        var generator = SplitMix64(seed: RandomizedRun.seed(default: 0x5eed))
        var mirror = Array(0..<3_000)
        let list = ObservableList(mirror)
        var next = 3_000
        for step in 0..<2_000 {
            let lower = Int(generator.next() % UInt64(mirror.count + 1))
            let length: Int
            switch generator.next() % 10 {
            case 0: length = min(mirror.count - lower, Int(generator.next() % 1_500))   // across chunks
            case 1...4: length = min(mirror.count - lower, 1)
            default: length = 0
            }
            let added = Int(generator.next() % (step % 50 == 0 ? 1_200 : 3))
            let newElements = Array(next ..< next + added)
            next += added
            mirror.replaceSubrange(lower ..< lower + length, with: newElements)
            list.replaceSubrange(lower ..< lower + length, with: newElements)
            XCTAssertEqual(list.count, mirror.count)
            if step % 97 == 0 || mirror.count < 5 {
                XCTAssertEqual(list.elements, mirror, "step \(step)")
                XCTAssertEqual(Array(list), mirror, "read by position, step \(step)")
            }
        }
        XCTAssertEqual(list.elements, mirror)
        list.replaceAll(with: [])
        XCTAssertTrue(list.isEmpty)
        list.insert(7, at: 0)
        XCTAssertEqual(list.elements, [7])
    }
}
