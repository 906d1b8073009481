import Foundation
import GRDB
import SurveyStorage
import XCTest

/// Edits as revisions: an edit is a response of its own naming the one it
/// replaces, which stays as history; lists and exports show the current
/// revision; the server hears of an edit only after the revision it replaces.
final class RevisionTests: XCTestCase {
    private func response(_ instanceID: String, name: String, replacing: String? = nil) -> FormResponse {
        FormResponse(formID: "household", formVersion: "3", instanceID: instanceID, startedAt: Date(), submittedAt: Date(),
                     title: name, answers: [.init(path: "name", value: name)], deprecatedID: replacing)
    }

    func testAnEditReplacesItsRevisionInListsAndExports_andKeepsItAsHistory() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        try store.insert(response("uuid:a1", name: "Ada"))
        try store.insert(response("uuid:b1", name: "Bea"))
        let edit = try store.insert(response("uuid:a2", name: "Ada Lovelace", replacing: "uuid:a1"))
        XCTAssertEqual(edit.deprecatedID, "uuid:a1")

        XCTAssertEqual(try store.listing(ofForm: "household").map(\.instanceID), ["uuid:a2", "uuid:b1"])
        XCTAssertEqual(try store.responses(toForm: "household").map(\.instanceID), ["uuid:a2", "uuid:b1"])
        let newest = try store.newestResponses(toForm: "household", limit: 10)
        XCTAssertEqual(newest.total, 2)
        XCTAssertEqual(newest.newest.map(\.instanceID), ["uuid:a2", "uuid:b1"])
        XCTAssertEqual(try store.revisions(endingWith: "uuid:a2").map(\.instanceID), ["uuid:a1", "uuid:a2"])
        XCTAssertEqual(try store.revisions(endingWith: "uuid:b1").map(\.instanceID), ["uuid:b1"])

        // The same edit stored twice (a draft restored after a crash) is one.
        try store.insert(response("uuid:a2", name: "Ada Lovelace", replacing: "uuid:a1"))
        XCTAssertEqual(try store.revisions(endingWith: "uuid:a2").count, 2)
    }

    func testARevisionEditedAlready_isAConflict_andNothingIsStored() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        try store.insert(response("uuid:a1", name: "Ada"))
        try store.insert(response("uuid:a2", name: "Ada L.", replacing: "uuid:a1"))
        XCTAssertThrowsError(try store.insert(response("uuid:a3", name: "Ada K.", replacing: "uuid:a1"))) { error in
            XCTAssertTrue((error as? StorageError)?.message.contains("was edited already (its newer revision is uuid:a2)") == true,
                          "\(error)")
        }
        XCTAssertThrowsError(try store.insert(response("uuid:x2", name: "Nobody", replacing: "uuid:gone"))) { error in
            XCTAssertTrue((error as? StorageError)?.message.contains("no longer stored") == true, "\(error)")
        }
        XCTAssertEqual(try store.count(), 1, "one response, in two revisions")
        XCTAssertEqual(try store.deliverySummary().waiting, 2, "nothing refused is queued")
    }

    func testAnEditTakenBack_makesTheRevisionItReplacedCurrentAgain() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        try store.insert(response("uuid:a1", name: "Ada"))
        let edit = try store.insert(response("uuid:a2", name: "Ada L.", replacing: "uuid:a1"))
        try store.deleteResponse(id: XCTUnwrap(edit.id))
        XCTAssertEqual(try store.listing(ofForm: "household").map(\.instanceID), ["uuid:a1"])
        // And it can be edited again.
        try store.insert(response("uuid:a3", name: "Ada K.", replacing: "uuid:a1"))
        XCTAssertEqual(try store.listing(ofForm: "household").map(\.instanceID), ["uuid:a3"])
    }

    func testAnEditIsSentOnlyAfterTheRevisionItReplaces() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        let server = "https://central.example.org/v1/key/K/projects/3"
        try store.insert(response("uuid:a1", name: "Ada"), for: .openRosa(server: server, submission: "<a1/>"))
        try store.insert(response("uuid:a2", name: "Ada L.", replacing: "uuid:a1"),
                         for: .openRosa(server: server, submission: "<a2/>"))
        let now = Date()
        let first = try store.claimBatch(limit: 10, now: now, leaseEnd: now + 60, destination: server)
        XCTAssertEqual(first.map(\.instanceID), ["uuid:a1"], "the edit waits for its revision")
        XCTAssertNil(first.first?.deprecatedID)

        // Its revision failed: the edit still waits, however long.
        try store.markFailed(["uuid:a1"], reason: "HTTP 500", retryAt: now + 30)
        XCTAssertFalse(try store.hasDue(at: now + 1, destination: server))
        XCTAssertTrue(try store.claimBatch(limit: 10, now: now + 1, leaseEnd: now + 60, destination: server).isEmpty)

        let retry = try store.claimBatch(limit: 10, now: now + 31, leaseEnd: now + 90, destination: server)
        XCTAssertEqual(retry.map(\.instanceID), ["uuid:a1"])
        try store.markSent(["uuid:a1"])
        XCTAssertTrue(try store.hasDue(at: now + 32, destination: server))
        let edit = try store.claimBatch(limit: 10, now: now + 32, leaseEnd: now + 90, destination: server)
        XCTAssertEqual(edit.map(\.instanceID), ["uuid:a2"])
        XCTAssertEqual(edit.first?.deprecatedID, "uuid:a1")
        XCTAssertEqual(edit.first?.submission, "<a2/>")
    }
}
