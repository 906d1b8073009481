import XCTest
import TwoWayBinding

private struct Saved: Sendable, Equatable { let count: Int }
private struct Failed: Sendable, Equatable { let reason: String }

final class EventBusTests: XCTestCase {
    @MainActor func testPublish_reachesSubscribersOfThatTypeOnly() async {
        let bus = EventBus()
        var saved: [Saved] = []
        var failed: [Failed] = []
        let t1 = bus.subscribe(Saved.self) { saved.append($0) }
        let t2 = bus.subscribe(Failed.self) { failed.append($0) }
        bus.publish(Saved(count: 1))
        XCTAssertEqual(saved, [Saved(count: 1)])
        XCTAssertEqual(failed, [])
        withExtendedLifetime((t1, t2)) {}
    }

    @MainActor func testPublish_inSubscriptionOrder() async {
        let bus = EventBus()
        var order: [Int] = []
        let tokens = (1...3).map { index in bus.subscribe(Saved.self) { _ in order.append(index) } }
        bus.publish(Saved(count: 0))
        XCTAssertEqual(order, [1, 2, 3])
        withExtendedLifetime(tokens) {}
    }

    @MainActor func testCancelledToken_stopsDelivery() async {
        let bus = EventBus()
        var count = 0
        let token = bus.subscribe(Saved.self) { _ in count += 1 }
        token.cancel()
        bus.publish(Saved(count: 0))
        XCTAssertEqual(count, 0)
        XCTAssertEqual(bus._subscriberCount(for: Saved.self), 0)
    }

    @MainActor func testReleasedToken_unsubscribes() async {
        let bus = EventBus()
        var token: ObservationToken? = bus.subscribe(Saved.self) { _ in }
        XCTAssertEqual(bus._subscriberCount(for: Saved.self), 1)
        withExtendedLifetime(token) {}
        token = nil
        XCTAssertEqual(bus._subscriberCount(for: Saved.self), 0)
    }

    @MainActor func testPost_fromBackgroundThreadDeliversOnMainActor() async {
        let bus = EventBus()
        let arrived = expectation(description: "delivered")
        var wasMain = false
        let token = bus.subscribe(Saved.self) { event in
            wasMain = Thread.isMainThread
            if event.count == 3 { arrived.fulfill() }
        }
        DispatchQueue.global().async { bus.post(Saved(count: 3)) }
        await fulfillment(of: [arrived], timeout: 5)
        XCTAssertTrue(wasMain)
        withExtendedLifetime(token) {}
    }
}
