import Dispatch
import Foundation
import GtkTestSupport
import SurveyStorage
import TwoWayBinding
import TwoWayBindingGtk
import XCTest

/// What a store says on its event bus, from the thread that wrote, reaches
/// the main actor under a running GLib main loop, as the app's windows hear it.
final class StorageEventsTests: GtkTestCase {
    private static func response(_ name: String) -> FormResponse {
        .survey(name: name)
    }

    func testAStoredResponseAndAFailure_reachTheMainActor_underGMainLoopRun() throws {
        let folder = try TemporaryDirectory()
        try MainActor.assumeIsolated {
            MainLoopBridge.install()
            let events = EventBus()
            let store = try ResponseStore(directory: folder.url, events: events)
            var stored: [String] = [], failures: [String] = [], onMainThread = true
            let storedToken = events.subscribe(ResponseStored.self) { event in
                onMainThread = onMainThread && Thread.isMainThread
                XCTAssertNotNil(event.response.id, "the event carries the response as stored")
                stored.append(event.response.answer(at: "name") ?? "")
            }
            let failedToken = events.subscribe(StorageFailed.self) { failure in
                onMainThread = onMainThread && Thread.isMainThread
                failures.append(failure.message)
            }
            defer {
                storedToken.cancel()
                failedToken.cancel()
            }

            let ada = Self.response("Ada"), grace = Self.response("Grace")
            DispatchQueue.global().async {
                _ = try? store.insert(ada)
                _ = try? store.insert(grace)
            }
            XCTAssertTrue(GtkMainLoop.run(timeout: 10) { stored.count == 2 }, "the events never reached the main actor")
            XCTAssertEqual(stored, ["Ada", "Grace"], "in the order they were stored")

            // A database from a newer version takes nothing: the store says so.
            try store._recordMigration("v99: from a newer version")
            let newer = try ResponseStore(directory: folder.url, events: events)
            let refused = Self.response("Refused")
            DispatchQueue.global().async { _ = try? newer.insert(refused) }
            XCTAssertTrue(GtkMainLoop.run(timeout: 10) { !failures.isEmpty }, "the failure never reached the main actor")
            XCTAssertTrue(failures[0].hasPrefix("The response was not saved"), failures[0])
            XCTAssertEqual(stored.count, 2)
            XCTAssertTrue(onMainThread, "every event was delivered on the main thread")
        }
    }

    func testAStoreOpenedOnAnotherThread_speaksOnTheBusGivenWhenItIsTaken() throws {
        let folder = try TemporaryDirectory()
        try MainActor.assumeIsolated {
            MainLoopBridge.install()
            let opening = ResponseStore.Opening(directory: folder.url)
            let events = EventBus()
            var stored: [String] = []
            let token = events.subscribe(ResponseStored.self) { stored.append($0.response.title) }
            defer { token.cancel() }

            let store = try opening.store(events: events)
            let ada = Self.response("Ada")
            DispatchQueue.global().async { _ = try? store.insert(ada) }

            XCTAssertTrue(GtkMainLoop.run(timeout: 10) { !stored.isEmpty }, "the event never reached the main actor")
            XCTAssertEqual(stored, ["Ada"])
        }
    }
}
