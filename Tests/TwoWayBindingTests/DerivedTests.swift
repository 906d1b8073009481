import XCTest
import TwoWayBinding

final class DerivedTests: XCTestCase {
    @MainActor func testMap_followsItsInput() async {
        let years = Observable(1.0)
        let text = years.map { "\($0) yrs" }
        XCTAssertEqual(text.value, "1.0 yrs")
        years.value = 2.5
        XCTAssertEqual(text.value, "2.5 yrs")
    }

    @MainActor func testRecomputesOnlyWhenAnInputChanges() async {
        let input = Observable(1)
        let doubled = input.map { $0 * 2 }
        XCTAssertEqual(doubled._computeCount, 1)
        input.value = 1
        XCTAssertEqual(doubled._computeCount, 1, "an equal set changes no input")
        input.value = 2
        XCTAssertEqual(doubled._computeCount, 2)
    }

    @MainActor func testNotifiesOnlyWhenOutputChanges() async {
        let input = Observable(3)
        let isEven = input.map { $0 % 2 == 0 }
        let recorder = Recorder(isEven)
        input.value = 5
        input.value = 7
        XCTAssertEqual(recorder.count, 0)
        input.value = 8
        XCTAssertEqual(recorder.received, [true])
    }

    @MainActor func testCombine_ofTwoInputs() async {
        let first = Observable("Ada"), last = Observable("Lovelace")
        let full = Derived.combine(first, last) { "\($0) \($1)" }
        let recorder = Recorder(full)
        last.value = "Byron"
        XCTAssertEqual(full.value, "Ada Byron")
        XCTAssertEqual(recorder.received, ["Ada Byron"])
    }

    @MainActor func testCombine_ofThreeInputs() async {
        let a = Observable(1), b = Observable(2), c = Observable(3)
        let sum = Derived.combine(a, b, c) { $0 + $1 + $2 }
        c.value = 10
        XCTAssertEqual(sum.value, 13)
    }

    @MainActor func testDiamond_recomputesOnceWithoutGlitch() async {
        let source = Observable(1)
        let left = source.map { $0 + 1 }
        let right = source.map { $0 * 10 }
        var seen: [String] = []
        let bottom = Derived(from: [left, right]) { "\(left.value)/\(right.value)" }
        let token = bottom.observe { seen.append($0) }
        source.value = 2
        XCTAssertEqual(seen, ["3/20"], "never a mix such as 3/10")
        XCTAssertEqual(bottom._computeCount, 2)
        withExtendedLifetime(token) {}
    }

    @MainActor func testDerivedOfDerived_followsThroughLevels() async {
        let source = Observable(2)
        let squared = source.map { $0 * $0 }
        let text = squared.map { "= \($0)" }
        source.value = 3
        XCTAssertEqual(text.value, "= 9")
    }

    @MainActor func testHeterogeneousInputs() async {
        let name = Observable("Ada"), age = Observable<Int?>(nil), active = Observable(true)
        let line = Derived(from: [name, age, active]) {
            "\(name.value) \(age.value.map(String.init) ?? "--") \(active.value ? "YES" : "NO")"
        }
        age.value = 36
        XCTAssertEqual(line.value, "Ada 36 YES")
    }

    @MainActor func testReleasedDerived_isNoLongerComputed() async {
        let source = Observable(0)
        var computed = 0
        var derived: Derived<Int>? = source.map { computed += 1; return $0 }
        XCTAssertEqual(computed, 1)
        withExtendedLifetime(derived) {}
        derived = nil
        source.value = 1
        XCTAssertEqual(computed, 1)
    }

    /// `total` reads `a` and, two steps down, `doubled`. Recomputed as they were
    /// marked, `total` would run before `doubled` caught up and show a mix of
    /// old and new; lowest level first, it runs once, with fresh inputs.
    @MainActor func testDerivedValues_recomputeLowestLevelFirst_withoutGlitches() async {
        let a = Observable(1)
        let plusOne = a.map { $0 + 1 }
        let doubled = plusOne.map { $0 * 2 }
        let total = Derived(from: [a, doubled]) { a.value + doubled.value }
        let recorder = Recorder(total)
        let computedBefore = total._computeCount
        a.value = 10
        XCTAssertEqual(recorder.received, [10 + 22], "one notification, never a value from stale inputs")
        XCTAssertEqual(total._computeCount - computedBefore, 1)
    }
}
