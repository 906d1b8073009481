import Foundation
import SurveyStorage
import SurveySync
import XCTest

/// Laptops as processes of their own (`sync-load-worker`): four submitting
/// and sending at once while the server goes down twice, and one killed
/// with SIGKILL in the middle of a round.
extension OutboxSenderTests {
    func testFourLaptopsDeliverTenThousandResponsesExactlyOnceThroughTwoOutages() async throws {
        let server = try server()
        let folders = (1...4).map { _ in temporaryFolder() }
        let workers = try folders.map { folder in
            try WorkerProcess(folder: folder, port: server.port, arguments: ["--submit", "2500", "--pace-ms", "2"])
        }
        defer { for worker in workers { worker.kill() } }

        for _ in 0..<2 {
            // Down once responses are arriving, and up again a moment later,
            // while the laptops are still submitting.
            let before = try serverCount()
            try await waitUntil(timeout: 60) { try self.serverCount() > before }
            server.stop()
            try await Task.sleep(for: .seconds(1.5))
            try server.start()
        }
        for worker in workers {
            let status = try await worker.waitForExit(timeout: 240)
            XCTAssertEqual(status, 0, worker.output)
        }

        // Each of the ways an unreachable server is reported, depending on
        // where in a round the server went down.
        let outageReports = ["cannot be reached", "closed the connection", "broke before the server answered"]
        XCTAssertTrue(workers.contains { worker in outageReports.contains { worker.output.contains($0) } },
                      "the outages were felt:\n" + workers.map(\.output).joined(separator: "\n"))
        XCTAssertEqual(try serverCount(), 10_000)
        XCTAssertEqual(try server.sql("""
            SELECT count(DISTINCT instance_id) || ' ' || count(DISTINCT device_id) || ' ' ||
                   count(DISTINCT answers->>'name') FROM survey_form.submissions
            """).trimmingCharacters(in: .whitespacesAndNewlines), "10000 4 10000", "no duplicates, four devices")
        for folder in folders {
            let store = try ResponseStore(directory: folder)
            XCTAssertEqual(try store.count(), 2_500, "every local response still stored")
            let summary = try store.deliverySummary()
            XCTAssertEqual(summary.queued, 0, "the outbox is empty")
            XCTAssertEqual(summary.sent, 2_500)
        }
    }

    func testALaptopKilledWhileSendingLeavesNothingLostOrDoubled() async throws {
        let folder = temporaryFolder()
        let store = try ResponseStore(directory: folder)
        for index in 0..<1_500 { try store.insert(surveyResponse("Respondent \(index)")) }

        // The worker stops itself once the server has committed its fourth
        // batch, before marking it sent, and is killed there.
        let killed = try WorkerProcess(folder: folder, port: try server().port,
                                       arguments: ["--batch", "25", "--stop-after-stored", "100"])
        try await killed.waitUntilStopped()
        killed.kill()
        _ = try await killed.waitForExit(timeout: 10)
        let atKill = try store.deliverySummary()
        XCTAssertEqual(try serverCount(), 100, "killed in the middle of the round, four batches in")
        XCTAssertLessThanOrEqual(atKill.sent, 75, "the batch the server holds last was never marked sent here")

        let next = try WorkerProcess(folder: folder, port: try server().port, arguments: ["--batch", "25"])
        let status = try await next.waitForExit(timeout: 120)
        XCTAssertEqual(status, 0, next.output)
        XCTAssertEqual(try serverCount(), 1_500)
        XCTAssertEqual(try server().sql("SELECT count(DISTINCT answers->>'name') FROM survey_form.submissions")
            .trimmingCharacters(in: .whitespacesAndNewlines), "1500")
        XCTAssertEqual(try store.deliverySummary().sent, 1_500)
        XCTAssertEqual(try store.count(), 1_500)
    }

    private func temporaryFolder() -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("laptop-\(UUID().uuidString.prefix(8))")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    private func waitUntil(timeout: TimeInterval, every interval: Duration = .milliseconds(50),
                           _ condition: () throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else { throw TestServerError("waited \(Int(timeout)) s in vain") }
            try await Task.sleep(for: interval)
        }
    }
}

/// One `sync-load-worker` process, its output in a file.
final class WorkerProcess: @unchecked Sendable {
    let pid: pid_t
    private let outputPath: String
    private var exitStatus: Int32?

    init(folder: URL, port: Int, arguments: [String]) throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("sync-load-worker").path
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw TestServerError("\(executable) is missing: build with --build-tests")
        }
        outputPath = NSTemporaryDirectory() + "worker-" + UUID().uuidString
        var environment = ProcessInfo.processInfo.environment
        environment["SURVEY_FORM_TEST_PASSWORD"] = TestServer.collectorPassword
        pid = try spawn(executable, [folder.path, String(port), "laptop_1"] + arguments, output: outputPath,
                        environment: environment)
    }

    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    func kill() {
        if exitStatus == nil { Glibc.kill(pid, SIGKILL) }
    }

    /// Returns once the worker has stopped itself (SIGSTOP); throws if it
    /// ended instead. Waits in waitpid on a thread of its own, with no
    /// deadline: the stop comes at a point of the work, not of the clock.
    func waitUntilStopped() async throws {
        let pid = pid
        let status: Int32 = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(pid, &status, WUNTRACED) < 0, errno == EINTR {}
                continuation.resume(returning: status)
            }
        }
        guard status & 0xff == 0x7f else {
            exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
            throw TestServerError("sync-load-worker ended (\(exitStatus ?? -1)) before it stopped:\n\(output)")
        }
    }

    /// The exit status, or -signal when killed.
    func waitForExit(timeout: TimeInterval) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while exitStatus == nil {
            var status: Int32 = 0
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid {
                exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
                break
            }
            guard Date() < deadline else {
                throw TestServerError("sync-load-worker still running after \(Int(timeout)) s:\n\(output)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return exitStatus ?? -1
    }

    deinit {
        kill()
        unlink(outputPath)
    }
}
