import FormEngine
import PostgresNIO

/// The server's tables, in the schema `survey_form`, created and migrated by
/// `survey-form --server-setup` run as the role that owns them, which alone
/// publishes forms. Collecting laptops log in as members of
/// `survey_form_collectors`, which may insert responses and read back only
/// their own; `survey_form_readers` may read everything, for the export. `docs/server-roles.sql` makes those roles.
///
/// Each step runs once, in order, in one transaction with its record in
/// `schema_version`; a server at a newer version is left alone.
public enum ServerSchema {
    /// The version this build of Survey Form writes to.
    public static var current: Int { steps.count }

    /// Each step's statements (one per query: the extended protocol takes
    /// one statement at a time).
    static let steps: [[String]] = [
        // 1: forms, submissions and the batches that brought them; collectors
        // insert and read back only what their own login sent.
        [
            """
            CREATE TABLE survey_form.forms (
                form_id text NOT NULL,
                form_version text NOT NULL,
                title text NOT NULL,
                file_name text NOT NULL,
                form_file bytea NOT NULL,
                published_by text NOT NULL DEFAULT current_user,
                published_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (form_id, form_version)
            )
            """,
            """
            CREATE TABLE survey_form.batches (
                batch_id uuid PRIMARY KEY,
                device_id text NOT NULL,
                responses integer NOT NULL,
                sent_by text NOT NULL DEFAULT current_user,
                received_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            """
            CREATE TABLE survey_form.submissions (
                instance_id text PRIMARY KEY,
                form_id text NOT NULL,
                form_version text NOT NULL,
                device_id text NOT NULL,
                started_at timestamptz,
                submitted_at timestamptz NOT NULL,
                received_at timestamptz NOT NULL DEFAULT now(),
                batch_id uuid NOT NULL REFERENCES survey_form.batches,
                submitted_by text NOT NULL DEFAULT current_user,
                answers jsonb NOT NULL CHECK (jsonb_typeof(answers) = 'object')
            )
            """,
            "CREATE INDEX submissions_by_form ON survey_form.submissions (form_id, form_version, submitted_at)",
            "GRANT USAGE ON SCHEMA survey_form TO survey_form_collectors, survey_form_readers",
            """
            GRANT SELECT, INSERT ON survey_form.forms, survey_form.batches, survey_form.submissions
                TO survey_form_collectors
            """,
            """
            GRANT SELECT ON survey_form.forms, survey_form.batches, survey_form.submissions, survey_form.schema_version
                TO survey_form_readers
            """,
            "GRANT SELECT ON survey_form.schema_version TO survey_form_collectors",
        ] + ownRows("submissions", by: "submitted_by") + ownRows("batches", by: "sent_by"),
        // 2: publishing a form is the owner's. Every reader's export parses
        // the published files, so a collector's login, on many laptops, must
        // not be able to put one there.
        [
            "REVOKE INSERT ON survey_form.forms FROM survey_form_collectors",
        ],
        // 3: the files answers name (photos, recordings, documents), each
        // stored with its response in one transaction, so that a response
        // on the server has every file it had on the laptop.
        [
            """
            CREATE TABLE survey_form.attachments (
                instance_id text NOT NULL REFERENCES survey_form.submissions ON DELETE CASCADE,
                name text NOT NULL,
                content bytea NOT NULL,
                submitted_by text NOT NULL DEFAULT current_user,
                PRIMARY KEY (instance_id, name)
            )
            """,
            "GRANT SELECT, INSERT ON survey_form.attachments TO survey_form_collectors",
            "GRANT SELECT ON survey_form.attachments TO survey_form_readers",
        ] + ownRows("attachments", by: "submitted_by"),
        // 4: edits as revisions. An edit is a submission of its own naming
        // the one it replaces, which stays as history; the export reads
        // the current revision of each response.
        [
            "ALTER TABLE survey_form.submissions ADD COLUMN deprecated_id text",
            """
            CREATE INDEX submissions_deprecated ON survey_form.submissions (deprecated_id)
                WHERE deprecated_id IS NOT NULL
            """,
        ],
    ]

    /// Row security on `table`: collectors insert, and read back, only rows
    /// whose `column` is their own login; readers read every row.
    private static func ownRows(_ table: String, by column: String) -> [String] {
        [
            "ALTER TABLE survey_form.\(table) ENABLE ROW LEVEL SECURITY",
            """
            CREATE POLICY collectors_insert ON survey_form.\(table) FOR INSERT TO survey_form_collectors
                WITH CHECK (\(column) = current_user)
            """,
            """
            CREATE POLICY collectors_select ON survey_form.\(table) FOR SELECT TO survey_form_collectors
                USING (\(column) = current_user)
            """,
            "CREATE POLICY readers_select ON survey_form.\(table) FOR SELECT TO survey_form_readers USING (true)",
        ]
    }

    /// Creates or migrates the schema; returns the version the server was at.
    /// Needs the owner's login (or one allowed to create the schema).
    @discardableResult
    public static func migrate(_ settings: ServerSettings, password: String?) async throws -> Int {
        try await ServerConnection.with(settings, password: password) { connection in
            let logger = ServerConnection.logger
            try await connection.query("CREATE SCHEMA IF NOT EXISTS survey_form", logger: logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS survey_form.schema_version (
                    version integer PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """, logger: logger)
            let before = try await version(connection)
            guard before < current else { return before }
            for (index, step) in steps.enumerated() where index + 1 > before {
                let number = index + 1
                try await connection.withTransaction(logger: logger) { connection in
                    // One step at a time, even with two set-ups at once.
                    try await connection.query("LOCK TABLE survey_form.schema_version IN EXCLUSIVE MODE", logger: logger)
                    guard try await version(connection) < number else { return }
                    for statement in step {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query("INSERT INTO survey_form.schema_version (version) VALUES (\(number))", logger: logger)
                }
            }
            return before
        }
    }

    /// The version the server's schema is at: 0 when there is none.
    static func version(_ connection: PostgresConnection) async throws -> Int {
        let rows = try await connection.query(
            "SELECT COALESCE(MAX(version), 0)::int8 FROM survey_form.schema_version", logger: ServerConnection.logger
        )
        for try await version in rows.decode(Int.self) { return version }
        return 0
    }

    /// Fails with a message that says what to do unless the server's schema
    /// is one this version can write to.
    static func requireCurrent(_ connection: PostgresConnection, settings: ServerSettings) async throws {
        let found: Int
        do {
            found = try await version(connection)
        } catch {
            let problem = SyncError(error, settings: settings)
            guard problem.kind == .schema || problem.kind == .refused else { throw problem }
            found = 0
        }
        if found < current {
            throw SyncError(
                tr("The server %@ is not set up for this version of Survey Form. Ask its administrator to run survey-form --server-setup.", settings.host),
                kind: .schema
            )
        }
    }
}
