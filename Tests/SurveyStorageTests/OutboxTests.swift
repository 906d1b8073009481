import Foundation
import GRDB
import SurveyStorage
import XCTest

/// The local outbox: queued with the response, claimed for a lease, never
/// emptied of responses by delivery.
final class OutboxTests: XCTestCase {
    private func surveyResponse(_ name: String, comments: String = "") -> FormResponse {
        .survey(name: name, comments: comments, submittedAt: Date())
    }

    private func formResponse(_ instanceID: String) -> FormResponse {
        FormResponse(formID: "household", formVersion: "3", instanceID: instanceID, startedAt: Date(), submittedAt: Date(),
                     answers: [.init(path: "name", value: "Ada")])
    }

    func testEveryStoredResponseIsQueuedOnceAndNothingUnstoredIs() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        let survey = try store.insert(surveyResponse("Ada"))
        XCTAssertEqual(try store.delivery(of: survey.instanceID)?.state, .waiting, "queued under the id the server knows it by")
        try store.insert(formResponse("uuid:f1"))
        try store.insert(formResponse("uuid:f1"))
        XCTAssertEqual(try store.deliverySummary().waiting, 2)

        // A response the full disk refuses is not queued either: both or neither.
        let pages = try FileManager.default.attributesOfItem(atPath: store.url.path)[.size] as! Int / 4096
        try store.limitSize(toPages: pages)
        XCTAssertThrowsError(try store.insert(surveyResponse("Big", comments: String(repeating: "x", count: 64_000))))
        XCTAssertEqual(try store.deliverySummary().waiting, 2)
        XCTAssertEqual(try store.count(), 2)
    }

    func testEachResponseGoesWhereItsFormCameFromWithTheXMLMadeWhenItWasStored() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        let central = "https://central.example.org/v1/key/K/projects/3"
        let kobo = "https://kc.example.org/team"
        try store.insert(formResponse("uuid:shared"))
        try store.insert(formResponse("uuid:c1"), for: .openRosa(server: central, submission: "<data id=\"household\"/>"))
        try store.insert(formResponse("uuid:k1"), for: .openRosa(server: kobo, submission: "<data/>"))
        XCTAssertEqual(try store.openRosaDestinations(), [central, kobo])

        let now = Date()
        XCTAssertTrue(try store.hasDue(at: now, destination: central))
        // Each sender takes its own server's responses and no other's.
        let shared = try store.claimBatch(limit: 10, now: now, leaseEnd: now + 60)
        XCTAssertEqual(shared.map(\.instanceID), ["uuid:shared"])
        XCTAssertNil(shared[0].submission)
        let toCentral = try store.claimBatch(limit: 10, now: now, leaseEnd: now + 60, destination: central)
        XCTAssertEqual(toCentral.map(\.instanceID), ["uuid:c1"])
        XCTAssertEqual(toCentral[0].submission, "<data id=\"household\"/>")
        try store.markSent(["uuid:c1"])
        XCTAssertFalse(try store.hasDue(at: now + 120, destination: central))
        XCTAssertTrue(try store.hasDue(at: now + 120, destination: kobo))
        // Sent, the server is still known: a later round reports on it.
        XCTAssertEqual(try store.openRosaDestinations(), [central, kobo])
        XCTAssertEqual(try store.deliverySummary().sent, 1)
    }

    func testAnEncryptedFormsResponse_keepsItsKeyAndTheFirstEnvelopeForEveryTry() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        let central = "https://central.example.org/v1/key/K/projects/3"
        try store.insert(formResponse("uuid:e1"), for: .openRosa(server: central, submission: "<data/>", publicKey: "MIIB"))
        XCTAssertEqual(try store.destination(of: "uuid:e1"), .openRosa(server: central, submission: "<data/>", publicKey: "MIIB"),
                       "Undo queues it again as encrypted")
        let now = Date()
        let first = try store.claimBatch(limit: 10, now: now, leaseEnd: now + 60, destination: central)
        XCTAssertEqual(first.map(\.publicKey), ["MIIB"])
        XCTAssertEqual(first.map(\.envelope), [nil])
        XCTAssertEqual(try store.keepEnvelope(Data("first".utf8), for: "uuid:e1"), Data("first".utf8))
        // A second envelope made meanwhile gives way to the one kept.
        XCTAssertEqual(try store.keepEnvelope(Data("second".utf8), for: "uuid:e1"), Data("first".utf8))
        try store.markFailed(["uuid:e1"], reason: "link cut", retryAt: now)
        let retry = try store.claimBatch(limit: 10, now: now + 120, leaseEnd: now + 180, destination: central)
        XCTAssertEqual(retry.map(\.envelope), [Data("first".utf8)])
    }

    func testAClaimHoldsForItsLeaseAndThenPassesToTheNextSender() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        for index in 0..<3 { try store.insert(formResponse("uuid:\(index)")) }
        let now = Date()
        let first = try store.claimBatch(limit: 2, now: now, leaseEnd: now + 60)
        XCTAssertEqual(first.map(\.instanceID), ["uuid:0", "uuid:1"], "oldest first")
        XCTAssertEqual(first.map(\.attempts), [1, 1])
        let second = try store.claimBatch(limit: 10, now: now, leaseEnd: now + 60)
        XCTAssertEqual(second.map(\.instanceID), ["uuid:2"], "a live lease is not taken")
        // The first sender died: after its lease the rows are due again.
        let retaken = try store.claimBatch(limit: 10, now: now + 61, leaseEnd: now + 120)
        XCTAssertEqual(Set(retaken.map(\.instanceID)), ["uuid:0", "uuid:1", "uuid:2"])
        XCTAssertEqual(retaken.first { $0.instanceID == "uuid:0" }?.attempts, 2)
    }

    func testABatchIsBoundedByBytesAsWellAsCount_andTheRestStaysDue() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        let long = String(repeating: "x", count: 100_000)
        for index in 0..<30 { try store.insert(surveyResponse("R\(index)", comments: long)) }
        let now = Date()
        let first = try store.claimBatch(limit: 100, maxBytes: 1_000_000, now: now, leaseEnd: now + 60)
        XCTAssertEqual(first.count, 9, "nine of about 100 KB fit in 1 MB")
        XCTAssertLessThanOrEqual(first.map(\.answersJSON.utf8.count).reduce(0, +), 1_000_000)
        let second = try store.claimBatch(limit: 100, maxBytes: 1_000_000, now: now, leaseEnd: now + 60)
        XCTAssertEqual(second.count, 9, "what did not fit stayed due, and nothing is claimed twice")
        XCTAssertTrue(Set(first.map(\.instanceID)).isDisjoint(with: second.map(\.instanceID)))
        let one = try store.claimBatch(limit: 100, maxBytes: 10, now: now, leaseEnd: now + 60)
        XCTAssertEqual(one.count, 1, "a response larger than the bound still goes, alone")
        XCTAssertEqual(try store.claimBatch(limit: 100, now: now, leaseEnd: now + 60).count, 11)
    }

    func testAFailureWaitsOutItsRetryTimeAndSentIsFinal() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        try store.insert(formResponse("uuid:a"))
        try store.insert(formResponse("uuid:b"))
        let now = Date()
        _ = try store.claimBatch(limit: 10, now: now, leaseEnd: now + 60)
        try store.markSent(["uuid:a"], at: now)
        try store.markFailed(["uuid:a", "uuid:b"], reason: "The server is down.", retryAt: now + 30)
        XCTAssertEqual(try store.delivery(of: "uuid:a")?.state, .sent, "a late failure does not undo a delivery")
        let failed = try XCTUnwrap(store.delivery(of: "uuid:b"))
        XCTAssertEqual(failed.state, .failed)
        XCTAssertEqual(failed.lastError, "The server is down.")
        let summary = try store.deliverySummary()
        XCTAssertEqual([summary.sent, summary.failed, summary.queued], [1, 1, 1])
        XCTAssertEqual(summary.lastError, "The server is down.")
        XCTAssertEqual(try store.claimBatch(limit: 10, now: now + 29, leaseEnd: now + 90), [])
        XCTAssertEqual(try store.claimBatch(limit: 10, now: now + 31, leaseEnd: now + 90).map(\.instanceID), ["uuid:b"])
        XCTAssertEqual(try store.responses(toForm: "household").count, 2, "delivery deletes nothing")
    }

    func testSendNowMakesWaitingAndHeldResponsesDueButNotSentOnes() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        for id in ["uuid:sent", "uuid:failed", "uuid:held", "uuid:waiting"] { try store.insert(formResponse(id)) }
        let now = Date()
        _ = try store.claimBatch(limit: 3, now: now, leaseEnd: now + 600)
        try store.markSent(["uuid:sent"], at: now)
        try store.markFailed(["uuid:failed"], reason: "down", retryAt: now + 600)
        XCTAssertEqual(try store.claimBatch(limit: 10, now: now, leaseEnd: now + 600).map(\.instanceID), ["uuid:waiting"])
        try store.markFailed(["uuid:waiting"], reason: "down", retryAt: now + 600)
        XCTAssertEqual(try store.claimBatch(limit: 10, now: now, leaseEnd: now + 600), [], "nothing is due")

        try store.makeAllDue()
        XCTAssertEqual(try store.delivery(of: "uuid:held")?.state, .waiting, "a lease left behind is given up")
        XCTAssertEqual(try store.delivery(of: "uuid:failed")?.lastError, "down", "the reason stays until a try succeeds")
        XCTAssertEqual(Set(try store.claimBatch(limit: 10, now: now, leaseEnd: now + 600).map(\.instanceID)),
                       ["uuid:failed", "uuid:held", "uuid:waiting"])
        XCTAssertEqual(try store.delivery(of: "uuid:sent")?.state, .sent)
    }

    func testADeletedResponseLeavesTheQueueAndUndoQueuesItAgain() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        let stored = try store.insert(formResponse("uuid:d"))
        var removed = try XCTUnwrap(store.deleteResponse(id: try XCTUnwrap(stored.id)))
        XCTAssertNil(try store.delivery(of: "uuid:d"))
        removed.id = nil
        try store.insert(removed)
        XCTAssertEqual(try store.delivery(of: "uuid:d")?.state, .waiting)

        // One for an OpenRosa server goes back there, with its XML.
        let central = DeliveryDestination.openRosa(server: "https://central.example.org/v1/key/K/projects/3", submission: "<data/>")
        let queued = try store.insert(formResponse("uuid:o"), for: central)
        XCTAssertEqual(try store.destination(of: "uuid:o"), central)
        XCTAssertEqual(try store.destination(of: "uuid:d"), .sharedServer)
        var gone = try XCTUnwrap(store.deleteResponse(id: try XCTUnwrap(queued.id)))
        gone.id = nil
        try store.insert(gone, for: central)
        XCTAssertEqual(try store.destination(of: "uuid:o"), central)
    }

    func testEachStoreHasItsOwnLastingDeviceID() throws {
        let first = try TemporaryDirectory(), second = try TemporaryDirectory()
        let id = try ResponseStore(directory: first.url).deviceID()
        XCTAssertEqual(try ResponseStore(directory: first.url).deviceID(), id, "kept across openings")
        XCTAssertNotEqual(try ResponseStore(directory: second.url).deviceID(), id)
        XCTAssertEqual(id.count, 36)
    }

    func testTheBuiltInSurveysResponseIsClaimedWithItsFormAndTypedAnswers() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        let stored = try store.insert(.survey(
            name: "Ada", company: "Engines", years: "12.5", isCurrentEmployer: true, salary: "85000",
            submittedAt: Date(timeIntervalSince1970: 1_800_000_000), startedAt: Date(timeIntervalSince1970: 1_799_999_700),
            instanceID: "uuid:typed", formVersion: "3"
        ))
        let claimed = try XCTUnwrap(store.claimBatch(limit: 10, leaseEnd: Date() + 60).first)
        XCTAssertEqual([claimed.instanceID, claimed.formID, claimed.formVersion], [stored.instanceID, "survey_form", "3"])
        XCTAssertEqual(claimed.startedAt, Date(timeIntervalSince1970: 1_799_999_700))
        XCTAssertEqual(claimed.submittedAt, Date(timeIntervalSince1970: 1_800_000_000))
        XCTAssertEqual(claimed.answersJSON, #"{"name":"Ada","company":"Engines","years_of_experience":12.5,"#
            + #""current_employer":true,"approx_salary":85000,"comments":""}"#)
    }

    func testAnswersGoAsTypedJSONAndComeBackWithTheirKinds() {
        let answers = FormResponse.surveyAnswers(name: "Zoë \"Z\"\n\u{1}", company: "A\\B", years: "12.5",
                                                 isCurrentEmployer: true, salary: "85000")
            + [FormResponse.Answer(path: "below_zero", value: "-5", kind: .number)]
        let json = AnswersJSON.text(of: answers)
        XCTAssertEqual(json, #"{"name":"Zoë \"Z\"\n\u0001","company":"A\\B","years_of_experience":12.5,"#
            + #""current_employer":true,"approx_salary":85000,"comments":"","below_zero":-5}"#)
        // Read back in key order, a number as its text, `true` as OK.
        XCTAssertEqual(AnswersJSON.formAnswers(from: json), answers.sorted { $0.path < $1.path })

        let blank = FormResponse.surveyAnswers(name: "Bo")
        let blankJSON = AnswersJSON.text(of: blank)
        XCTAssertEqual(blankJSON, #"{"name":"Bo","company":"","years_of_experience":null,"current_employer":false,"#
            + #""approx_salary":null,"comments":""}"#, "a blank number is null, an acknowledgement not given false")
        XCTAssertEqual(AnswersJSON.formAnswers(from: blankJSON), [
            .init(path: "approx_salary", value: ""), .init(path: "comments", value: ""), .init(path: "company", value: ""),
            .init(path: "current_employer", value: "", kind: .boolean), .init(path: "name", value: "Bo"),
            .init(path: "years_of_experience", value: ""),
        ], "null reads back blank, false as a blank acknowledgement")
    }

    func testANumberAnswerThatIsNoNumber_goesAsItsText() {
        let answers = [FormResponse.Answer(path: "n", value: "12 kg", kind: .number),
                       FormResponse.Answer(path: "m", value: "nan", kind: .number)]
        XCTAssertEqual(AnswersJSON.text(of: answers), #"{"n":"12 kg","m":"nan"}"#)
        XCTAssertEqual(AnswersJSON.formAnswers(from: "not json"), [], "a damaged object reads as no answers")
    }
}
