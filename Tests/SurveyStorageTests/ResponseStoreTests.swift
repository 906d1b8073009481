import XCTest
import SurveyModel
import SurveyStorage

final class ResponseStoreTests: XCTestCase {
    private func response(_ name: String, at seconds: TimeInterval) -> SurveyResponse {
        SurveyResponse(
            answers: SurveyAnswers(
                name: name, companyName: "Engines", yearsOfExperience: 12.5,
                isCurrentEmployer: true, approxSalary: 85_000, comments: "line one\nline \"two\""
            ),
            submittedAt: Date(timeIntervalSince1970: seconds)
        )
    }

    func testInsert_assignsIdAndRoundTrips() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        let stored = try store.insert(response("Ada", at: 1_800_000_000))
        XCTAssertNotNil(stored.id)
        XCTAssertEqual(try store.count(), 1)
        let fetched = try store.newestFirst()
        XCTAssertEqual(fetched, [stored])
        XCTAssertNil(store.setAside)
    }

    func testABuiltInResponseKeepsItsStartAndVersion_readEitherWay() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        var response = response("Ada", at: 1_800_000_000)
        response.startedAt = Date(timeIntervalSince1970: 1_799_999_700)
        response.formVersion = "3"
        let stored = try store.insert(response)
        XCTAssertEqual(try store.inSubmissionOrder(), [stored])
        var walked: [SurveyResponse] = []
        try store.forEachInSubmissionOrder { walked.append($0) }
        XCTAssertEqual(walked, [stored])
        XCTAssertEqual(walked.first?.startedAt, Date(timeIntervalSince1970: 1_799_999_700))
        XCTAssertEqual(walked.first?.formVersion, "3")
        let outgoing = try store.claimBatch(limit: 10, leaseEnd: Date().addingTimeInterval(60))
        XCTAssertEqual(outgoing.map(\.startedAt), [Date(timeIntervalSince1970: 1_799_999_700)], "the server hears when it was started")
    }

    func testNewestFirst_ordersBySubmissionTime() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        try store.insert(response("older", at: 1_000))
        try store.insert(response("newest", at: 3_000))
        try store.insert(response("middle", at: 2_000))
        XCTAssertEqual(try store.newestFirst().map(\.answers.name), ["newest", "middle", "older"])
        XCTAssertEqual(try store.inSubmissionOrder().map(\.answers.name), ["older", "newest", "middle"])
    }

    func testAListedResponseGoesWhereTheListingSortsIt_onceOnly() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        for (name, seconds) in [("older", 1_000.0), ("tie", 2_000), ("tie too", 2_000), ("newest", 3_000)] {
            try store.insert(response(name, at: seconds))
        }
        let listed = try store.listing()
        XCTAssertEqual(listed.map(\.name), ["newest", "tie too", "tie", "older"])
        let newer = try store.insert(response("new", at: 4_000))
        XCTAssertEqual(ListedResponse.position(of: newer.id!, submittedAt: newer.submittedAt, in: listed), 0)
        let between = try store.insert(response("between", at: 1_500))
        XCTAssertEqual(ListedResponse.position(of: between.id!, submittedAt: between.submittedAt, in: listed), 3)
        // Every response already listed (a restored draft submitted again) is found.
        for response in listed {
            XCTAssertNil(ListedResponse.position(of: response.id, submittedAt: response.submittedAt, in: listed), response.name)
        }
        XCTAssertEqual(ListedResponse.position(of: 1, submittedAt: Date(), in: []), 0)
    }

    func testResponsesSurviveReopening() throws {
        let folder = try TemporaryDirectory()
        do {
            let store = try ResponseStore(directory: folder.url)
            try store.insert(response("Ada", at: 1))
        }
        let reopened = try ResponseStore(directory: folder.url)
        XCTAssertEqual(try reopened.count(), 1)
    }

    func testOptionalAnswers_storedAsNull() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        let blank = SurveyResponse(answers: SurveyAnswers(name: "Ada"), submittedAt: Date(timeIntervalSince1970: 5))
        try store.insert(blank)
        let fetched = try XCTUnwrap(store.newestFirst().first)
        XCTAssertNil(fetched.answers.yearsOfExperience)
        XCTAssertNil(fetched.answers.approxSalary)
    }

    func testCreatesMissingDataFolder() throws {
        let folder = try TemporaryDirectory()
        let nested = folder.url.appendingPathComponent("a/b/c")
        _ = try ResponseStore(directory: nested)
        XCTAssertTrue(FileManager.default.fileExists(atPath: nested.appendingPathComponent(ResponseStore.fileName).path))
    }

    func testCorruptDatabase_isMovedAsideAndKept() throws {
        let folder = try TemporaryDirectory()
        let dbURL = folder.url.appendingPathComponent(ResponseStore.fileName)
        let garbage = Data(repeating: 0x5A, count: 4096)
        try garbage.write(to: dbURL)

        let store = try ResponseStore(directory: folder.url)
        let setAside = try XCTUnwrap(store.setAside)
        XCTAssertEqual(setAside.original.lastPathComponent, ResponseStore.fileName)
        XCTAssertTrue(setAside.movedTo.lastPathComponent.hasPrefix("responses.sqlite3.corrupt-"))
        XCTAssertEqual(try Data(contentsOf: setAside.movedTo), garbage, "the damaged file is kept as it was")
        XCTAssertEqual(try store.count(), 0, "a new database was started")
        try store.insert(response("after", at: 1))
        XCTAssertEqual(try store.count(), 1)
    }

    func testUnusableDataFolder_reportsClearError() throws {
        let folder = try TemporaryDirectory()
        let blocker = folder.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        XCTAssertThrowsError(try ResponseStore(directory: blocker)) { error in
            XCTAssertTrue((error as? StorageError)?.message.hasPrefix("Could not create the data folder") == true, "\(error)")
        }
    }

    func testFullDatabase_failsClearlyAndLosesNothingStored() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        try store.insert(response("kept", at: 1))
        let pages = try FileManager.default.attributesOfItem(atPath: store.url.path)[.size] as! Int / 4096
        try store.limitSize(toPages: pages)
        var big = response("too big", at: 2)
        big.answers.comments = String(repeating: "x", count: 64_000)
        XCTAssertThrowsError(try store.insert(big)) { error in
            XCTAssertEqual((error as? StorageError)?.message, "The response was not saved: the disk is full.")
        }
        XCTAssertEqual(try store.newestFirst().map(\.answers.name), ["kept"])
    }
}
