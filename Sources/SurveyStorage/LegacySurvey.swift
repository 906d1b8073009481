import Foundation
import FormEngine
import GRDB

/// What versions before the one form stack kept of the built-in survey: its
/// own table (`response`) and its own draft (`draft.json`). Both are moved
/// into what every form has: `form_response` rows and a form draft of
/// `survey_form` version 1, with the answers as the survey's form writes them.
enum LegacySurvey {
    static let formID = "survey_form"
    static let formVersion = "1"

    /// The survey's answers as its form stores them: numbers in the form's
    /// notation, the acknowledgement as `OK` or blank.
    static func answers(
        name: String, company: String, years: Double?, isCurrentEmployer: Bool, salary: Double?, comments: String
    ) -> [FormResponse.Answer] {
        [
            FormResponse.Answer(path: "name", value: name),
            FormResponse.Answer(path: "company", value: company),
            FormResponse.Answer(path: "years_of_experience", value: years.map(CSVFile.number) ?? "", kind: .number),
            FormResponse.Answer(path: "current_employer", value: isCurrentEmployer ? "OK" : "", kind: .boolean),
            FormResponse.Answer(path: "approx_salary", value: salary.map(CSVFile.number) ?? "", kind: .number),
            FormResponse.Answer(path: "comments", value: comments),
        ]
    }

    /// "Ada Lovelace — Analytical Engines", as the survey's list named its
    /// rows and its form's `instance_name` names them now.
    static func title(name: String, company: String) -> String {
        company.isEmpty ? name : "\(name) — \(company)"
    }

    /// Migration v7, inside its transaction: each `response` row becomes a
    /// `form_response` row (its queue entry following it), every response
    /// gets a title for the list, and `response` is dropped.
    static func moveResponses(_ db: Database) throws {
        try db.alter(table: FormResponseRecord.databaseTableName) { table in
            table.add(column: "title", .text).notNull().defaults(to: "")
        }
        // Responses to forms from files: their first text answer.
        let existing = try Row.fetchAll(db, sql: "SELECT id, answers FROM form_response")
        for row in existing {
            let answers = (try? StoredAnswers.decode(Data((row[1] as String).utf8))) ?? []
            try db.execute(sql: "UPDATE form_response SET title = ? WHERE id = ?",
                           arguments: [FormResponse.defaultTitle(answers), row[0] as Int64])
        }
        let rows = try legacyRows(db)
        while let row = try rows.next() {
            let oldID: Int64 = row[0]
            let instanceID = (row[8] as String?) ?? FormEnvironment.randomInstanceID()
            // The same response stored as a form's already (the survey's
            // file opened, a draft restored): that row stays, and the queue
            // points at it.
            if let kept = try Int64.fetchOne(db, sql: "SELECT id FROM form_response WHERE instanceID = ?", arguments: [instanceID]) {
                try db.execute(sql: "UPDATE delivery SET source = 'form', responseID = ? WHERE instanceID = ?",
                               arguments: [kept, instanceID])
                continue
            }
            var record = try FormResponseRecord(response(from: row, instanceID: instanceID))
            try record.insert(db)
            try db.execute(sql: """
                UPDATE delivery SET source = 'form', responseID = ? WHERE source = 'survey' AND responseID = ?
                """, arguments: [record.id!, oldID])
        }
        try db.execute(sql: "DROP TABLE response")
    }

    /// The survey's responses in a database from before migration v7 that is
    /// only read (an export from a backup): what gives the next, or `nil`
    /// when there is no `response` table.
    static func unmovedResponses(_ db: Database) throws -> (() throws -> FormResponse?)? {
        guard try db.tableExists("response") else { return nil }
        let cursor = try legacyRows(db)
        return { try cursor.next().map { row in response(from: row, instanceID: (row[8] as String?) ?? "") } }
    }

    /// The `response` table's rows, oldest first: id, submittedAt, name,
    /// companyName, yearsOfExperience, isCurrentEmployer, approxSalary,
    /// comments, instanceID, startedAt, formVersion (the last three NULL in a
    /// table from before they were kept).
    private static func legacyRows(_ db: Database) throws -> RowCursor {
        let columns = Set(try db.columns(in: "response").map(\.name))
        let optional = ["instanceID", "startedAt", "formVersion"].map { columns.contains($0) ? $0 : "NULL" }
        return try Row.fetchCursor(db, sql: """
            SELECT id, submittedAt, name, companyName, yearsOfExperience, isCurrentEmployer, approxSalary, comments,
                   \(optional.joined(separator: ", "))
            FROM response ORDER BY id
            """)
    }

    /// One of `legacyRows`'s rows as the survey's form stores a response.
    private static func response(from row: Row, instanceID: String) -> FormResponse {
        let submittedAt: Date = row[1]
        let name: String = row[2], company: String = row[3]
        return FormResponse(
            formID: formID, formVersion: (row[10] as String?) ?? formVersion, instanceID: instanceID,
            startedAt: (row[9] as Date?) ?? submittedAt, submittedAt: submittedAt,
            title: title(name: name, company: company),
            answers: answers(
                name: name, company: company, years: row[4], isCurrentEmployer: row[5], salary: row[6], comments: row[7]
            )
        )
    }

    /// `draft.json` as the survey's window wrote it.
    private struct OldDraft: Decodable {
        struct Answers: Decodable {
            var name: String
            var companyName: String
            var yearsOfExperience: Double?
            var isCurrentEmployer: Bool
            var approxSalary: Double?
            var comments: String
        }

        var version: Int
        var savedAt: Date
        var answers: Answers
        var instanceID: String?
        var startedAt: Date?
    }

    static let draftFileName = "draft.json"

    /// Makes the survey's old draft in `directory` the form draft of
    /// `survey_form` version 1, unless that has one already, and removes it.
    /// A damaged one is moved aside and returned, as any damaged draft is.
    static func takeOverDraft(in directory: URL, into drafts: FormDraftStore) throws -> SetAsideFile? {
        let url = directory.appendingPathComponent(draftFileName)
        switch try DraftFile.read(OldDraft.self, from: url, accept: { $0.version <= 1 }) {
        case .none:
            return nil
        case .setAside(let file):
            return file
        case .read(let old):
            if case .none = try drafts.loadOwn(formID: formID, version: formVersion) {
                let answers = old.answers
                try drafts.save(FormDraft(
                    formID: formID, formVersion: formVersion,
                    instanceID: old.instanceID ?? FormEnvironment.randomInstanceID(),
                    startedAt: old.startedAt ?? old.savedAt, savedAt: old.savedAt,
                    answers: Self.answers(
                        name: answers.name, company: answers.companyName, years: answers.yearsOfExperience,
                        isCurrentEmployer: answers.isCurrentEmployer, salary: answers.approxSalary, comments: answers.comments
                    )
                ))
            }
            try DraftFile.remove(url)
            return nil
        }
    }
}

extension FormDraftStore {
    /// Takes over the draft a version before the one form stack left for the
    /// built-in survey (see `LegacySurvey`); a damaged one is moved aside
    /// and returned. Nothing to do costs one look at the data folder.
    public func takeOverSurveyDraft() throws -> SetAsideFile? {
        try LegacySurvey.takeOverDraft(in: folder.deletingLastPathComponent(), into: self)
    }
}

extension FormResponse {
    /// What a list calls a response to a form without an `instance_name`:
    /// its first text answer, cut at 80 characters.
    public static func defaultTitle(_ answers: [Answer]) -> String {
        guard let first = answers.first(where: { $0.kind == nil && !$0.value.isEmpty }) else { return "" }
        return first.value.count > 80 ? first.value.prefix(80) + "…" : first.value
    }
}
