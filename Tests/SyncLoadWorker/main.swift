// A laptop in a test, as a process of its own: its own data folder (so its
// own device id), submitting through the store's `insert` as the window does
// and delivering through `OutboxSender` as the app does, until everything it
// stored is on the server. The load and crash tests of SurveySyncTests start
// several and kill some.
//
//   sync-load-worker FOLDER PORT USER [--submit N] [--pace-ms MS] [--batch N]
//                    [--stop-after-stored N]
//
// With --stop-after-stored, the worker stops itself (SIGSTOP) once the
// server has committed N responses, before it marks the last batch sent:
// a test kills it there, at a known point, whatever the machine's speed.
//
// The password comes from SURVEY_FORM_TEST_PASSWORD. Prints a line per round
// ("sent N, queued M"); exits 0 once nothing is queued, 1 after five minutes.

import FormEngine
import Foundation
import Synchronization
import SurveyStorage
import SurveySync

let arguments = CommandLine.arguments
guard arguments.count >= 4, let port = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: sync-load-worker FOLDER PORT USER [--submit N] [--pace-ms MS] [--batch N]\n".utf8))
    exit(2)
}

func option(_ name: String) -> Int? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return Int(arguments[index + 1])
}

let folder = URL(fileURLWithPath: arguments[1])
let submitCount = option("--submit") ?? 0
let pace = option("--pace-ms") ?? 0
let store = try ResponseStore(directory: folder)
let settings = ServerSettings(host: "127.0.0.1", port: port, database: "survey_responses", user: arguments[3],
                              security: .insecure)
var sender = OutboxSender(store: store, settings: settings,
                          password: ProcessInfo.processInfo.environment["SURVEY_FORM_TEST_PASSWORD"])
if let batch = option("--batch") { sender.batchSize = batch }
if let stopAfter = option("--stop-after-stored") {
    let stored = Mutex(0)
    sender.onBatchStored = { ids in
        let total = stored.withLock { count in
            count += ids.count
            return count
        }
        if total >= stopAfter { raise(SIGSTOP) }
    }
}

/// Submits on a thread of its own, as a person at the window would while
/// the app sends in the background.
final class Submitter: @unchecked Sendable {
    private let lock = NSLock()
    private var finished = submitCount == 0
    var isFinished: Bool { lock.withLock { finished } }

    func run() {
        let device = folder.lastPathComponent
        for index in 0..<submitCount {
            // The built-in survey's answers, as its form stores them.
            let name = "\(device) respondent \(index)"
            let now = Date()
            let response = FormResponse(
                formID: "survey_form", formVersion: "1", instanceID: FormEnvironment.randomInstanceID(),
                startedAt: now, submittedAt: now, title: "\(name) — Acme",
                answers: [
                    .init(path: "name", value: name),
                    .init(path: "company", value: "Acme"),
                    .init(path: "years_of_experience", value: String(index % 40), kind: .number),
                    .init(path: "current_employer", value: index % 2 == 0 ? "OK" : "", kind: .boolean),
                    .init(path: "approx_salary", value: String(index * 10), kind: .number),
                    .init(path: "comments", value: ""),
                ]
            )
            do {
                try store.insert(response)
            } catch {
                FileHandle.standardError.write(Data("not stored: \(error.localizedDescription)\n".utf8))
                exit(1)
            }
            if pace > 0 { usleep(useconds_t(pace * 1000)) }
        }
        lock.withLock { finished = true }
    }
}

let submitter = Submitter()
Thread.detachNewThread { submitter.run() }

let deadline = Date().addingTimeInterval(300)
while Date() < deadline {
    let submitted = submitter.isFinished
    let report = await sender.sendDue(ignoringBackoff: true)
    let queued = try store.deliverySummary().queued
    let line = "sent \(report.sent), queued \(queued)\(report.failure.map { ", " + $0.message } ?? "")\n"
    FileHandle.standardOutput.write(Data(line.utf8))
    if submitted && queued == 0 { exit(0) }
    if report.sent == 0 { try await Task.sleep(for: .milliseconds(100)) }
}
FileHandle.standardError.write(Data("responses still queued after five minutes\n".utf8))
exit(1)
