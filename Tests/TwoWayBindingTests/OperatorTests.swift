import XCTest
import TwoWayBinding

final class OperatorTests: XCTestCase {
    @MainActor func testTwoWayOperator_bindsBothWays() async {
        let model = Observable("Ada")
        let field = FakeTextField()
        let binding = field <-> model
        XCTAssertEqual(field.text, "Ada")
        field.type("Grace")
        XCTAssertEqual(model.value, "Grace")
        XCTAssertTrue(field.binder === binding)
    }

    @MainActor func testOneWayOperator_intoControl() async {
        let source = Observable("shown")
        let field = FakeTextField()
        field <- source
        source.value = "updated"
        XCTAssertEqual(field.text, "updated")
        field.type("user")
        XCTAssertEqual(source.value, "updated")
    }

    @MainActor func testOneWayOperator_betweenObservables() async {
        let source = Observable(1), target = Observable(0)
        let token = target <- source
        XCTAssertEqual(target.value, 1)
        source.value = 2
        XCTAssertEqual(target.value, 2)
        token.cancel()
        source.value = 3
        XCTAssertEqual(target.value, 2)
    }
}
