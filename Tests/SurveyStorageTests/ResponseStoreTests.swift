import XCTest
import SurveyStorage

final class ResponseStoreTests: XCTestCase {
    private func response(_ name: String, at seconds: TimeInterval, comments: String = "line one\nline \"two\"") -> FormResponse {
        .survey(name: name, company: "Engines", years: "12.5", isCurrentEmployer: true, salary: "85000",
                comments: comments, submittedAt: Date(timeIntervalSince1970: seconds))
    }

    func testInsert_assignsIdAndRoundTrips() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        let stored = try store.insert(response("Ada", at: 1_800_000_000))
        XCTAssertNotNil(stored.id)
        XCTAssertEqual(try store.count(), 1)
        XCTAssertEqual(try store.responses(toForm: "survey_form"), [stored])
        XCTAssertEqual(try store.response(id: try XCTUnwrap(stored.id)), stored)
        XCTAssertNil(try store.response(id: try XCTUnwrap(stored.id) + 1))
        XCTAssertEqual(stored.answers, FormResponse.surveyAnswers(
            name: "Ada", company: "Engines", years: "12.5", isCurrentEmployer: true, salary: "85000",
            comments: "line one\nline \"two\""), "every answer kept with its kind")
        XCTAssertNil(store.setAside)
    }

    func testABuiltInResponseKeepsItsStartAndVersion_readEitherWay() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        var response = response("Ada", at: 1_800_000_000)
        response.startedAt = Date(timeIntervalSince1970: 1_799_999_700)
        response.formVersion = "3"
        let stored = try store.insert(response)
        XCTAssertEqual(try store.responses(toForm: "survey_form"), [stored])
        var walked: [FormResponse] = []
        try store.forEachResponse(toForm: "survey_form") { walked.append($0) }
        XCTAssertEqual(walked, [stored])
        XCTAssertEqual(walked.first?.startedAt, Date(timeIntervalSince1970: 1_799_999_700))
        XCTAssertEqual(walked.first?.formVersion, "3")
        let outgoing = try store.claimBatch(limit: 10, leaseEnd: Date().addingTimeInterval(60))
        XCTAssertEqual(outgoing.map(\.startedAt), [Date(timeIntervalSince1970: 1_799_999_700)], "the server hears when it was started")
    }

    func testTheListingIsNewestSubmittedFirst_theWalkInTheOrderStored() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        try store.insert(response("older", at: 1_000))
        try store.insert(response("newest", at: 3_000))
        try store.insert(response("middle", at: 2_000))
        XCTAssertEqual(try store.listing(ofForm: "survey_form").map(\.title),
                       ["newest — Engines", "middle — Engines", "older — Engines"])
        XCTAssertEqual(try store.surveyNames(), ["older", "newest", "middle"])
        XCTAssertEqual(try store.listing(ofForm: "household"), [], "each form's own")
    }

    func testAListedResponseGoesWhereTheListingSortsIt_onceOnly() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        for (name, seconds) in [("older", 1_000.0), ("tie", 2_000), ("tie too", 2_000), ("newest", 3_000)] {
            try store.insert(response(name, at: seconds))
        }
        let listed = try store.listing(ofForm: "survey_form")
        XCTAssertEqual(listed.map(\.title), ["newest — Engines", "tie too — Engines", "tie — Engines", "older — Engines"])
        XCTAssertEqual(listed.map(\.delivery), [.waiting, .waiting, .waiting, .waiting])
        let newer = try store.insert(response("new", at: 4_000))
        XCTAssertEqual(ListedResponse.position(of: newer.id!, submittedAt: newer.submittedAt, in: listed), 0)
        let between = try store.insert(response("between", at: 1_500))
        XCTAssertEqual(ListedResponse.position(of: between.id!, submittedAt: between.submittedAt, in: listed), 3)
        // Every response already listed (a restored draft submitted again) is found.
        for response in listed {
            XCTAssertNil(ListedResponse.position(of: response.id, submittedAt: response.submittedAt, in: listed), response.title)
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

    func testBlankNumbers_stayBlankAndKeepTheirKind() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        try store.insert(.survey(name: "Ada", submittedAt: Date(timeIntervalSince1970: 5)))
        let fetched = try XCTUnwrap(store.responses(toForm: "survey_form").first)
        XCTAssertEqual(fetched.answers.first { $0.path == "years_of_experience" }, .init(path: "years_of_experience", value: "", kind: .number))
        XCTAssertEqual(fetched.answers.first { $0.path == "approx_salary" }, .init(path: "approx_salary", value: "", kind: .number))
        XCTAssertEqual(fetched.answers.first { $0.path == "current_employer" }, .init(path: "current_employer", value: "", kind: .boolean))
    }

    func testATitleIsStoredWithoutControlCharacters_andListed() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        var response = response("Ada", at: 1)
        response.title = "Ada\u{202E} —\n Engines\u{7}"
        let stored = try store.insert(response)
        XCTAssertEqual(stored.title, "Ada — Engines")
        XCTAssertEqual(try store.listing(ofForm: "survey_form"), [ListedResponse(
            id: try XCTUnwrap(stored.id), instanceID: stored.instanceID, title: "Ada — Engines",
            submittedAt: stored.submittedAt, delivery: .waiting
        )])
        XCTAssertEqual(ListedResponse(stored), try store.listing(ofForm: "survey_form").first, "as a list adds it just stored")
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
        let big = response("too big", at: 2, comments: String(repeating: "x", count: 64_000))
        XCTAssertThrowsError(try store.insert(big)) { error in
            XCTAssertEqual((error as? StorageError)?.message, "The response was not saved: the disk is full.")
        }
        XCTAssertEqual(try store.surveyNames(), ["kept"])
    }
}
