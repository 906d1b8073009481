import Foundation
import SurveyStorage
import SurveySync
import XCTest

/// The link to the server breaking mid-batch, through a relay that cuts it
/// where the test says: halfway through a batch's statement (before the
/// server could commit it), after the commit (the acknowledgement lost),
/// and at every stretch of the byte stream between.
extension OutboxSenderTests {
    private func sender(_ store: ResponseStore, through proxy: CuttingProxy) throws -> OutboxSender {
        var settings = try server().settings()
        settings.port = proxy.port
        return OutboxSender(store: store, settings: settings, password: TestServer.collectorPassword)
    }

    private func queue(_ count: Int) throws -> ResponseStore {
        let store = try makeStore()
        for index in 0..<count { try store.insert(surveyResponse("Respondent \(index)")) }
        return store
    }

    func testALinkCutBeforeTheCommitStoresNothingAndTheRetryStoresAll() async throws {
        let store = try queue(3)
        // Halfway through the batch's one statement, its values sent.
        let proxy = try CuttingProxy(to: try server().port, cut: .beforeClientSends("ON CONFLICT"))
        let cut = try await sender(store, through: proxy).sendDue()
        XCTAssertEqual(proxy.cutCount, 1)
        XCTAssertEqual(cut.sent, 0)
        XCTAssertEqual(cut.failure?.kind, .unreachable, cut.failure?.message ?? "")
        XCTAssertEqual(try serverCount(), 0, "the server rolled the batch back")
        XCTAssertEqual(try store.deliverySummary().failed, 3)

        let retry = try await sender(store, through: proxy).sendDue(ignoringBackoff: true)
        XCTAssertNil(retry.failure)
        XCTAssertEqual(retry.sent, 3)
        XCTAssertEqual(try serverCount(), 3)
        XCTAssertEqual(try store.deliverySummary().sent, 3)
    }

    func testALinkCutAfterTheCommitLosesOnlyTheAcknowledgement() async throws {
        let store = try queue(3)
        // The server's reply to the batch, which it sends once committed
        // (the statement's last insert is of the responses' files: none here).
        let proxy = try CuttingProxy(to: try server().port, cut: .beforeServerSends("INSERT 0 0"))
        let cut = try await sender(store, through: proxy).sendDue()
        XCTAssertEqual(proxy.cutCount, 1)
        XCTAssertEqual(cut.sent, 0, "the sender never heard of the commit")
        XCTAssertEqual(cut.failure?.kind, .unreachable, cut.failure?.message ?? "")
        XCTAssertEqual(try serverCount(), 3, "the server has them")
        XCTAssertEqual(try store.deliverySummary().sent, 0, "not marked sent without an acknowledgement")

        let retry = try await sender(store, through: proxy).sendDue(ignoringBackoff: true)
        XCTAssertNil(retry.failure)
        XCTAssertEqual(retry.sent, 3)
        XCTAssertEqual(try serverCount(), 3, "sent twice, stored once")
        XCTAssertEqual(try store.deliverySummary().sent, 3)
    }

    func testALinkCutAtAnyByteLosesNothingAndStoresNothingTwice() async throws {
        // How long a whole round's stream is, so that the cuts cover all of
        // it: the log-in, the schema check, the batch and its reply.
        let measuring = try CuttingProxy(to: try server().port, cut: nil)
        _ = try await sender(try queue(20), through: measuring).sendDue()
        let total = measuring.clientBytes
        XCTAssertGreaterThan(total, 2_000)
        let offsets = [1, 8, 40] + stride(from: 100, to: total, by: max(total / 12, 1)).map { $0 }
        for offset in offsets {
            try server().sql("TRUNCATE survey_form.attachments, survey_form.submissions, survey_form.batches")
            let store = try queue(20)
            let proxy = try CuttingProxy(to: try server().port, cut: .afterClientBytes(offset))
            let cut = try await sender(store, through: proxy).sendDue()
            XCTAssertEqual(proxy.cutCount, 1, "cut at byte \(offset)")
            XCTAssertEqual(cut.failure?.kind, .unreachable, "cut at byte \(offset)")
            XCTAssertTrue(cut.failure?.message.contains("broke") ?? false, "cut at byte \(offset): \(cut.failure?.message ?? "")")
            XCTAssertEqual(cut.sent, 0, "cut at byte \(offset)")
            let stored = try serverCount()
            XCTAssertTrue(stored == 0 || stored == 20, "all or nothing, cut at byte \(offset): \(stored)")

            let retry = try await sender(store, through: proxy).sendDue(ignoringBackoff: true)
            XCTAssertNil(retry.failure, "cut at byte \(offset): \(retry.failure?.message ?? "")")
            XCTAssertEqual(try serverCount(), 20, "cut at byte \(offset)")
            XCTAssertEqual(try store.deliverySummary().sent, 20, "cut at byte \(offset)")
            XCTAssertEqual(try store.count(), 20)
        }
    }

    func testAServerThatStopsAnsweringIsGivenUpAndLosesNothing() async throws {
        let store = try queue(3)
        let proxy = try CuttingProxy(to: try server().port, cut: .stallBeforeServerSends("INSERT 0 0"))
        defer { proxy.stop() }
        var waiting = try sender(store, through: proxy)
        waiting.answerDeadline = .seconds(1)
        let stalled = try await waiting.sendDue()
        XCTAssertEqual(proxy.cutCount, 1)
        XCTAssertEqual(stalled.sent, 0)
        XCTAssertEqual(stalled.failure?.kind, .unreachable)
        XCTAssertTrue(stalled.failure?.message.contains("did not answer in time") ?? false, stalled.failure?.message ?? "")
        XCTAssertEqual(try store.deliverySummary().failed, 3, "kept, to be tried again")
    }

    func testASlowLinkThatKeepsMovingIsNotCutOff() async throws {
        // Each of the server's replies takes 150 ms: the round
        // lasts several times the one-second deadline, a batch at a time.
        let store = try queue(100)
        let proxy = try CuttingProxy(to: try server().port, cut: nil, serverDelay: 0.15)
        var slow = try sender(store, through: proxy)
        slow.batchSize = 5
        slow.answerDeadline = .seconds(1)
        let started = Date()
        let report = await slow.sendDue()
        XCTAssertNil(report.failure, report.failure?.message ?? "")
        XCTAssertEqual(report.sent, 100)
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 2, "longer than the deadline")
        XCTAssertEqual(try serverCount(), 100)
    }
}
