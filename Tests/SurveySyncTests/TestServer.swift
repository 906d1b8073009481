import Foundation
import SurveySync

/// A private PostgreSQL server for one test class: initdb into a temporary
/// folder, listening on loopback and a socket in that folder, set up with
/// `docs/server-roles.sql` as a database administrator would, and stopped
/// at the end. As root (as in CI) the server runs as the `postgres` user,
/// since PostgreSQL refuses to run as root.
///
/// A missing PostgreSQL installation is a failure, not a skip: the
/// project's set-up installs it.
final class TestServer: @unchecked Sendable {
    static let adminPassword = "admin secret"
    static let collectorPassword = "collector secret"

    let folder: URL
    let port: Int
    private let bin: URL
    /// With TLS: the authority that signed the server's certificate, which
    /// names `localhost` only (not 127.0.0.1).
    let certificateAuthority: URL?

    init(tls: Bool = false) throws {
        guard let bin = Self.binFolder() else {
            throw TestServerError("PostgreSQL's server programs are not installed (run build-aux/setup)")
        }
        self.bin = bin
        folder = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("survey-form-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "postgres secret".write(to: folder.appendingPathComponent("pw"), atomically: true, encoding: .utf8)
        certificateAuthority = tls ? folder.appendingPathComponent("ca.pem") : nil
        if tls { try Self.makeCertificates(in: folder) }
        if Self.isRoot {
            try Self.run("/bin/chown", ["-R", "postgres:postgres", folder.path])
        }
        try Self.run(asServer: bin.appendingPathComponent("initdb").path, [
            "-D", folder.appendingPathComponent("data").path, "-U", "postgres",
            "--pwfile=" + folder.appendingPathComponent("pw").path,
            "--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync",
        ])
        var started: Int?
        for _ in 0..<5 {
            let candidate = Int.random(in: 20_000..<40_000)
            do {
                try Self.run(asServer: bin.appendingPathComponent("pg_ctl").path, [
                    "-D", folder.appendingPathComponent("data").path, "-l", folder.appendingPathComponent("log").path,
                    "-w", "-o", Self.serverOptions(folder: folder, port: candidate, tls: tls), "start",
                ])
                started = candidate
                break
            } catch {
                continue
            }
        }
        guard let started else {
            let log = (try? String(contentsOf: folder.appendingPathComponent("log"), encoding: .utf8)) ?? ""
            throw TestServerError("the test server did not start:\n\(log)")
        }
        port = started
        let roles = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/server-roles.sql")
        let copy = folder.appendingPathComponent("server-roles.sql")
        try FileManager.default.copyItem(at: roles, to: copy)
        if Self.isRoot { try Self.run("/bin/chown", ["postgres", copy.path]) }
        try psql(["-v", "admin_password='\(Self.adminPassword)'", "-f", copy.path])
        try sql("""
            CREATE ROLE laptop_1 LOGIN PASSWORD '\(Self.collectorPassword)' IN ROLE survey_form_collectors;
            CREATE ROLE laptop_2 LOGIN PASSWORD '\(Self.collectorPassword)' IN ROLE survey_form_collectors;
            CREATE ROLE results LOGIN PASSWORD '\(Self.collectorPassword)' IN ROLE survey_form_readers;
            """)
    }

    /// Settings for `user` on this server, over loopback without TLS (the
    /// test server has no certificate).
    func settings(user: String = "laptop_1") -> ServerSettings {
        ServerSettings(host: "127.0.0.1", port: port, database: "survey_responses", user: user, security: .insecure)
    }

    var adminSettings: ServerSettings { settings(user: "survey_form_admin") }

    /// Runs `statements` as the superuser in `database`; what psql printed.
    @discardableResult
    func sql(_ statements: String, database: String = "survey_responses") throws -> String {
        try psql(["-d", database, "-tA", "-v", "ON_ERROR_STOP=1", "-c", statements])
    }

    @discardableResult
    private func psql(_ arguments: [String]) throws -> String {
        try Self.run(asServer: bin.appendingPathComponent("psql").path,
                     ["-h", folder.path, "-p", String(port), "-U", "postgres", "-X", "-q"] + arguments)
    }

    func stop() {
        _ = try? Self.run(asServer: bin.appendingPathComponent("pg_ctl").path, [
            "-D", folder.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop",
        ])
    }

    /// Starts a server stopped by `stop()` again, on the same port.
    func start() throws {
        try Self.run(asServer: bin.appendingPathComponent("pg_ctl").path, [
            "-D", folder.appendingPathComponent("data").path, "-l", folder.appendingPathComponent("log").path,
            "-w", "-o", Self.serverOptions(folder: folder, port: port, tls: certificateAuthority != nil), "start",
        ])
    }

    private static func serverOptions(folder: URL, port: Int, tls: Bool) -> String {
        var options = "-k \(folder.path) -p \(port) -c listen_addresses=127.0.0.1 -c fsync=off"
        if tls {
            options += " -c ssl=on -c ssl_cert_file=\(folder.path)/server.pem -c ssl_key_file=\(folder.path)/server.key"
        }
        return options
    }

    /// A throwaway authority and a server certificate it signed for localhost.
    private static func makeCertificates(in folder: URL) throws {
        let openssl = "/usr/bin/openssl"
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try "subjectAltName=DNS:localhost\n".write(toFile: path("san.ext"), atomically: true, encoding: .utf8)
        try run(openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("ca.key"), "-out", path("ca.pem"),
                          "-days", "2", "-subj", "/CN=Survey Form test authority"])
        try run(openssl, ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("server.key"), "-out", path("server.csr"),
                          "-subj", "/CN=localhost"])
        try run(openssl, ["x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                          "-CAcreateserial", "-out", path("server.pem"), "-days", "2", "-extfile", path("san.ext")])
        chmod(path("server.key"), 0o600)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: - Running programs

    private static var isRoot: Bool { getuid() == 0 }

    private static func binFolder() -> URL? {
        let base = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        return versions.sorted { $0.compare($1, options: .numeric) == .orderedDescending }
            .map { base.appendingPathComponent($0).appendingPathComponent("bin") }
            .first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path) }
    }

    private static func run(asServer program: String, _ arguments: [String]) throws -> String {
        if isRoot { return try run("/usr/sbin/runuser", ["-u", "postgres", "--", program] + arguments) }
        return try run(program, arguments)
    }

    /// Runs `program` and waits for it; what it printed. posix_spawn and
    /// waitpid rather than Foundation's Process, whose wait for a child
    /// started from a test class's set-up never returned here.
    @discardableResult
    private static func run(_ program: String, _ arguments: [String]) throws -> String {
        let outputPath = NSTemporaryDirectory() + "pg-output-" + UUID().uuidString
        let errorPath = outputPath + ".errors"
        defer {
            unlink(outputPath)
            unlink(errorPath)
        }
        // What a program printed is its answer (a count, say); what it
        // complained of goes with a failure only. (psql, run as postgres
        // from a private checkout, warns that it cannot enter it.)
        let pid = try spawn(program, arguments, output: outputPath, errors: errorPath)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // Exited normally with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            throw TestServerError("\(program) \(arguments.joined(separator: " ")) failed (\(status)):\n\(text)\(errors)")
        }
        return text
    }
}

/// Starts `program` with standard input empty, standard output in the file
/// `output` and standard error in `errors` (or `output` too): files, not
/// pipes, since the server pg_ctl starts would hold a pipe open.
/// `environment` replaces the test's own when given.
func spawn(
    _ program: String, _ arguments: [String], output: String, errors: String? = nil, environment: [String: String]? = nil
) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if let errors {
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    } else {
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, program, &actions, nil, argv, &envp)
    guard spawned == 0 else { throw TestServerError("\(program) could not start: \(String(cString: strerror(spawned)))") }
    return pid
}

struct TestServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
