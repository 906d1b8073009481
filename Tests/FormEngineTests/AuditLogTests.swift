import FormEngine
import Foundation
import XCTest

/// The audit log Collect attaches as audit.csv: the response started,
/// each question entered and left (with its answer before and after, when
/// the form tracks changes), the response finalized.
final class AuditLogTests: XCTestCase {
    @MainActor private func form(_ parameters: String = "") throws -> FormViewModel {
        try FormViewModel(definition: try FormFixtures.definition("""
            | survey |
            | | type | name | label | parameters |
            | | audit | | | \(parameters) |
            | | text | name | Name | |
            | | begin_repeat | member | Member | |
            | | integer | age | Age | |
            | | end_repeat | | | |
            """))
    }

    private func at(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    @MainActor func testAFormWithAnAuditRow_runs_andItsAnswerNamesTheLog() async throws {
        let form = try form()
        XCTAssertTrue(form.answers().contains { $0.path == "audit" && $0.value == "audit.csv" })
        XCTAssertNotNil(AuditLog(definition: form.definition))
        XCTAssertNil(AuditLog(definition: try FormFixtures.definition("| survey |\n| | type | name | label |\n| | text | a | A |")))
    }

    @MainActor func testQuestionsEnteredAndLeft_areLoggedWithTheirNodes() async throws {
        let form = try form()
        let log = try XCTUnwrap(AuditLog(definition: form.definition))
        let name = try XCTUnwrap(form.state(named: "name"))
        let members = try XCTUnwrap(form.state(named: "member")?.repeatState)
        members.add()
        members.add()
        let secondAge = try XCTUnwrap(members.instances.value[1].states.first)

        log.record("form start", at: at(1_000))
        log.focus(name, node: form.answerPath(of: name).map { "/data/" + $0 }, at: at(2_000))
        log.focus(name, node: "/data/name", at: at(2_500))
        log.focus(secondAge, node: form.answerPath(of: secondAge).map { "/data/" + $0 }, at: at(3_000))
        log.focus(nil, node: nil, at: at(4_000))
        log.leave(at: at(5_000))
        log.record("form finalize", at: at(6_000))
        XCTAssertEqual(log.csv(user: "ada"), """
            event,node,start,end
            form start,,1000,
            question,/data/name,2000,3000
            question,/data/member[2]/age,3000,4000
            form finalize,,6000,

            """)
    }

    @MainActor func testTrackChanges_identifyUser_andLocation_addTheirColumns() async throws {
        let form = try form("track-changes=true identify-user=true location-priority=balanced location-min-interval=10 location-max-age=20")
        let log = try XCTUnwrap(AuditLog(definition: form.definition))
        let name = try XCTUnwrap(form.state(named: "name"))
        name.value.value = "Ada"
        log.focus(name, node: "/data/name", at: at(1_000))
        name.value.value = "Ada, \"the\" first"
        log.leave(at: at(2_000))
        XCTAssertEqual(log.csv(user: "field team 3"), """
            event,node,start,end,latitude,longitude,accuracy,old-value,new-value,user
            question,/data/name,1000,2000,,,,Ada,"Ada, ""the"" first",field team 3

            """)
        log.clear()
        XCTAssertTrue(log.events.isEmpty)
    }
}
