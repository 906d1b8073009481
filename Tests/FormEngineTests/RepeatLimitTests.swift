@testable import FormEngine
import Foundation
import TwoWayBinding
import XCTest

/// A repeat count typed or computed past reason: clamped before it becomes
/// an Int, and instances across every level of nesting share one cap.
final class RepeatLimitTests: XCTestCase {
    @MainActor func testACountPastAnyInt_isClamped_andNestedInstancesShareOneCap() async throws {
        let environment = FormEnvironment(
            now: { Date(timeIntervalSince1970: 0) }, timeZone: TimeZone(identifier: "UTC")!,
            deviceID: "device-1", username: "", newInstanceID: { "uuid:\(UUID().uuidString.lowercased())" }
        )
        let form = try FormViewModel(definition: FormFixtures.definition("""
            | survey |
            | | type | name | label | repeat_count |
            | | integer | n | How many? | |
            | | integer | m | And inside? | |
            | | begin repeat | outer | Outer | ${n} |
            | | begin repeat | inner | Inner | ${m} |
            | | end repeat | | | |
            | | end repeat | | | |
            """), language: nil, environment: environment)
        let outer = try XCTUnwrap(form.state(named: "outer")?.repeatState)
        func innerCounts() -> [Int] {
            outer.instances.value.map { $0.state(named: "inner")?.repeatState?.instances.value.count ?? -1 }
        }
        form.state(named: "n")?.value.value = "2"
        form.state(named: "m")?.value.value = "3"
        XCTAssertEqual(innerCounts(), [3, 3])
        XCTAssertEqual(outer.owner.runtime.repeatInstances, 8)

        // Typed, not computed: past Int.max as a Double, which converting would trap on.
        form.state(named: "m")?.value.value = "9223372036854775807"
        XCTAssertEqual(outer.owner.runtime.repeatInstances, FormLimits.repeatInstances)
        XCTAssertEqual(innerCounts().reduce(outer.instances.value.count, +), FormLimits.repeatInstances)
        XCTAssertFalse(outer.canAdd)
        XCTAssertNil(outer.instances.value[0].state(named: "inner")?.repeatState?.add())

        let m = try XCTUnwrap(form.state(named: "m"))
        XCTAssertEqual(m.validation.value, .invalid("Enter a whole number between -2147483648 and 2147483647."),
                       "an answer past XForms' int is refused with a message")
        // Typed into its field, it never reaches the answer.
        guard case .failure(let refusal) = ValueTransform<String, String>.typed(.integer).toModel("9223372036854775807") else {
            return XCTFail("a typed integer past 32 bits was taken")
        }
        XCTAssertEqual(refusal.message, "Enter a whole number between -2147483648 and 2147483647.")
        XCTAssertEqual(FormMessages.typeProblem("2147483647", for: .integer), nil)
        XCTAssertEqual(FormMessages.typeProblem("-2147483648", for: .integer), nil)
        XCTAssertNotNil(FormMessages.typeProblem("2147483648", for: .integer))

        form.state(named: "m")?.value.value = "1"
        XCTAssertEqual(innerCounts(), [1, 1])
        XCTAssertEqual(outer.owner.runtime.repeatInstances, 4, "removed instances gave their room back")
        form.state(named: "n")?.value.value = "0"
        XCTAssertEqual(outer.owner.runtime.repeatInstances, 0, "nested ones too")
    }
}
