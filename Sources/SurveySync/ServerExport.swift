public import Foundation
public import FormEngine
import PostgresNIO
import SurveyStorage

/// What the server holds, for whoever gathers the results: one CSV per
/// form version, written as a laptop's own export writes it (a form's
/// question paths in form order when its file was published or is the
/// app's own, else in alphabetical order).
public enum ServerExport {
    /// One file written.
    public struct File: Sendable, Equatable {
        public var formID: String
        public var formVersion: String
        public var url: URL
        public var responses: Int
    }

    /// Writes every form version's responses into `folder` (made if missing)
    /// as `FORM_ID-vVERSION.csv`; what was written. `replacing` lets a file
    /// take the place of an existing one. A form version the server has no
    /// file of takes its columns from `knownForms` (the app's built-in
    /// survey) when it is there.
    public static func write(
        _ settings: ServerSettings, password: String?, into folder: URL, replacing: Bool,
        knownForms: [FormDefinition] = []
    ) async throws -> [File] {
        let (forms, submissions) = try await ServerConnection.with(settings, password: password) { connection in
            var forms: [String: PublishedForm] = [:]
            let logger = ServerConnection.logger
            let formRows = try await connection.query(
                "SELECT form_id, form_version, file_name, form_file FROM survey_form.forms", logger: logger
            )
            for try await (id, version, fileName, file) in formRows.decode((String, String, String, ByteBuffer).self) {
                forms[id + "\u{0}" + version] = PublishedForm(fileName: fileName, data: Data(file.readableBytesView))
            }
            var submissions: [String: [Submission]] = [:]
            let rows = try await connection.query("""
                SELECT form_id, form_version, instance_id, started_at, submitted_at, answers::text
                FROM survey_form.submissions AS s
                WHERE NOT EXISTS (SELECT 1 FROM survey_form.submissions AS e WHERE e.deprecated_id = s.instance_id)
                ORDER BY submitted_at, instance_id
                """, logger: logger)
            for try await (id, version, instanceID, started, submitted, answers)
                in rows.decode((String, String, String, Date?, Date, String).self) {
                submissions[id + "\u{0}" + version, default: []].append(
                    Submission(instanceID: instanceID, startedAt: started, submittedAt: submitted, answers: answers)
                )
                ServerConnection.progressed(on: connection)
            }
            return (forms, submissions)
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw SyncError(tr("The folder %@ cannot be made: %@", folder.path, error.localizedDescription), kind: .refused)
        }
        var written: [File] = []
        let keys = submissions.keys.sorted()
        let versions = keys.map { key in
            let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
            return (formID: parts[0], version: parts.count > 1 ? parts[1] : "")
        }
        let names = fileNames(for: versions)
        for (index, key) in keys.enumerated() {
            let (formID, version) = versions[index]
            let rows = submissions[key] ?? []
            let url = folder.appendingPathComponent(names[index])
            let definition = forms[key].flatMap { try? FormDefinition(data: $0.data, fileName: $0.fileName) }
                ?? knownForms.first { $0.settings.id == formID && ($0.settings.version ?? "") == version }
            try FormCSVExporter.write(definition, responses: { body in
                for row in rows {
                    try body(FormResponse(
                        formID: formID, formVersion: version, instanceID: row.instanceID,
                        startedAt: row.startedAt ?? row.submittedAt, submittedAt: row.submittedAt,
                        answers: AnswersJSON.formAnswers(from: row.answers)
                    ))
                }
            }, to: url, replacing: replacing)
            written.append(File(formID: formID, formVersion: version, url: url, responses: rows.count))
        }
        return written
    }

    /// `FORM_ID-vVERSION.csv`, with anything a file name cannot hold
    /// replaced, no leading dot, and each part at most 100 bytes.
    static func fileName(formID: String, version: String) -> String {
        let safe = { (text: String) in
            var name = ""
            for character in text {
                let kept: Character = character.isLetter || character.isNumber || "-_.".contains(character) ? character : "_"
                guard name.utf8.count + kept.utf8.count <= 100 else { break }
                name.append(kept)
            }
            // Not hidden, and never `.` or `..`.
            if name.hasPrefix(".") { name = "_" + name.dropFirst() }
            return name.isEmpty ? "_" : name
        }
        return version.isEmpty ? "\(safe(formID)).csv" : "\(safe(formID))-v\(safe(version)).csv"
    }

    /// A file name per form version, none the same as another even where
    /// the file system ignores case: ids that clean to the same name
    /// (`a/b`, `a_b`) each get a hash of their own id and version added, so
    /// that no export replaces another's file.
    static func fileNames(for forms: [(formID: String, version: String)]) -> [String] {
        let plain = forms.map { fileName(formID: $0.formID, version: $0.version) }
        var uses: [String: Int] = [:]
        for name in plain { uses[name.lowercased(), default: 0] += 1 }
        return zip(plain, forms).map { name, form in
            guard uses[name.lowercased()]! > 1 else { return name }
            let hash = StableHash.of(form.formID + "\u{0}" + form.version)
            return name.dropLast(4) + "-" + String(hash >> 32, radix: 16) + ".csv"
        }
    }

    private struct PublishedForm: Sendable {
        var fileName: String
        var data: Data
    }

    private struct Submission: Sendable {
        var instanceID: String
        var startedAt: Date?
        var submittedAt: Date
        var answers: String
    }
}

/// Publishing a form's file to the server, so that an export from there
/// lays its columns out as the form does.
public enum ServerForms {
    /// Stores `definition`'s file (`data`, named `fileName`) as its id and
    /// version. Publishing a version already there with the same file does
    /// nothing; with another file, it is refused: a changed form needs a new
    /// version, or its responses could not be read back against it.
    public static func publish(
        _ settings: ServerSettings, password: String?, definition: FormDefinition, data: Data, fileName: String
    ) async throws -> Bool {
        let formID = definition.settings.id
        let version = definition.settings.version ?? ""
        let title = definition.settings.title
        return try await ServerConnection.with(settings, password: password) { connection in
            try await ServerSchema.requireCurrent(connection, settings: settings)
            let logger = ServerConnection.logger
            let bytes = ByteBuffer(bytes: data)
            do {
                let inserted = try await connection.query("""
                    INSERT INTO survey_form.forms (form_id, form_version, title, file_name, form_file)
                    VALUES (\(formID), \(version), \(title), \(fileName), \(bytes))
                    ON CONFLICT (form_id, form_version) DO NOTHING
                    RETURNING 1
                    """, logger: logger)
                for try await _ in inserted { return true }
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42501" {
                throw SyncError(
                    tr("The login %@ may not publish forms on %@: publishing needs the login that set the server up.", settings.user, settings.host),
                    kind: .refused
                )
            }
            let existing = try await connection.query("""
                SELECT form_file FROM survey_form.forms WHERE form_id = \(formID) AND form_version = \(version)
                """, logger: logger)
            for try await file in existing.decode(ByteBuffer.self) where Data(file.readableBytesView) == data {
                return false
            }
            throw SyncError(
                tr("Version %@ of the form %@ is on the server already, with another file. Give the changed form a new version.", version, formID),
                kind: .refused
            )
        }
    }
}
