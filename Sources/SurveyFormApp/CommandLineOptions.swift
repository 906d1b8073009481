import GtkAppShell
import TwoWayBindingGtk

/// What the command line asks for, beyond GTK's own options and `--help`.
enum CommandLineMode: Equatable {
    /// The window, with the form file given (`form(_:)`; else the last one,
    /// else the built-in survey).
    case run(kiosk: Bool)
    case version
    /// `form`: the responses to that form file's form, else the built-in survey's.
    case exportCSV(path: String, force: Bool, form: String?)
    case screenshot(path: String)
    case describeForm(path: String)
    case describeInstance(path: String)
    case sync(SyncCommands.Command, SyncCommands.Overrides)
    case formServer(FormServerCommands.Command, FormServerCommands.Login)
}

@MainActor
enum CommandLineOptions {
    static func add(to application: Application) {
        // In the order --help lists them.
        application.addOptions(
            [
                CommandLineOption("version", description: tr("Show the version and exit")),
                CommandLineOption("export-csv", argument: .path, description: tr("Write every stored response to PATH as CSV and exit"), placeholder: tr("PATH")),
                CommandLineOption("force", description: tr("With --export-csv, replace PATH if it exists")),
                CommandLineOption("form", argument: .path, description: tr("With --export-csv, export the responses to the form in FORM"), placeholder: tr("FORM")),
                CommandLineOption("kiosk", description: tr("Let respondents fill in the form: hide stored responses and export")),
                CommandLineOption("describe-form", argument: .path, description: tr("Print what the form file FORM contains as JSON and exit"), placeholder: tr("FORM")),
                CommandLineOption("describe-instance", argument: .path, description: tr("Print the XML a new response to the form in FORM is submitted as and exit"), placeholder: tr("FORM")),
                CommandLineOption("screenshot", argument: .path, description: tr("Render the window to PATH as PNG and exit"), placeholder: tr("PATH")),
                CommandLineOption("sync-status", description: tr("Show where the stored responses stand on their way to the server and exit")),
                CommandLineOption("sync-now", description: tr("Send every response the server does not have yet and exit")),
                CommandLineOption("server-setup", description: tr("Create or update Survey Form's tables on the server (as their owner) and exit")),
                CommandLineOption("store-password", description: tr("Keep the server password read from standard input in the keyring and exit")),
                CommandLineOption("insecure", description: tr("Connect to the server without checking its certificate, or encrypting when it offers no TLS")),
                CommandLineOption("ask-password", description: tr("With the sync options, read the server password from standard input for this run instead of the keyring")),
                CommandLineOption("from-server", description: tr("With --export-csv, export what the server holds into the folder PATH, a file per form version")),
                CommandLineOption("server", argument: .string, description: tr("With the sync options, the server HOST instead of the one in Preferences"), placeholder: tr("HOST")),
                CommandLineOption("database", argument: .string, description: tr("With the sync options, the server's DATABASE"), placeholder: tr("DATABASE")),
                CommandLineOption("user", argument: .string, description: tr("With the sync options, log in to the server as USER"), placeholder: tr("USER")),
                CommandLineOption("port", argument: .integer, description: tr("With the sync options, the server's PORT"), placeholder: tr("PORT")),
                CommandLineOption("ca-file", argument: .path, description: tr("With the sync options or --get-forms, also trust the certificate authority in the PEM file PATH"), placeholder: tr("PATH")),
                CommandLineOption("list-forms", argument: .string, description: tr("List the forms on the OpenRosa server at URL (ODK Central, KoboToolbox, Ona) and exit"), placeholder: tr("URL")),
                CommandLineOption("get-forms", argument: .string, description: tr("Download the forms on the OpenRosa server at URL with their media files, or bring them up to date, and exit"), placeholder: tr("URL")),
                CommandLineOption("form-id", argument: .string, description: tr("With --get-forms, only the form with the id ID"), placeholder: tr("ID")),
                CommandLineOption("publish-form", argument: .path, description: tr("Put the form file FORM on the server, so that its export lays out the form's columns, and exit"), placeholder: tr("FORM")),
            ],
            // Read here to check the form before anything opens; GApplication
            // (G_APPLICATION_HANDLES_OPEN) then opens it, in the running
            // instance when there is one.
            operands: (tr("[FORM]"), tr("The form to open")),
            summary: tr("A survey form that stores its responses on this computer.")
        )
    }

    static func parse(_ options: CommandLineArguments) -> CommandLineMode {
        if options.contains("version") { return .version }
        let force = options.contains("force")
        if let path = options.path("export-csv") {
            if options.contains("from-server") {
                return .sync(.exportFromServer(folder: path, replacing: force), syncOverrides(options))
            }
            return .exportCSV(path: path, force: force, form: options.path("form"))
        }
        if let path = options.path("screenshot") { return .screenshot(path: path) }
        let login = FormServerCommands.Login(
            user: options.string("user") ?? "", askPassword: options.contains("ask-password"),
            certificateAuthority: options.path("ca-file") ?? ""
        )
        if let url = options.string("list-forms") { return .formServer(.list(server: url), login) }
        if let url = options.string("get-forms") {
            return .formServer(.get(server: url, formID: options.string("form-id")), login)
        }
        if let path = options.path("publish-form") { return .sync(.publishForm(path: path), syncOverrides(options)) }
        let commands: [(String, SyncCommands.Command)] = [
            ("sync-status", .status), ("sync-now", .sendNow), ("server-setup", .setUpServer), ("store-password", .storePassword),
        ]
        if let command = commands.first(where: { options.contains($0.0) })?.1 {
            return .sync(command, syncOverrides(options))
        }
        if let path = options.path("describe-form") { return .describeForm(path: path) }
        if let path = options.path("describe-instance") { return .describeInstance(path: path) }
        return .run(kiosk: options.contains("kiosk"))
    }

    /// `--server`, `--port`, `--database`, `--user`, `--insecure`, `--ca-file` and `--ask-password`.
    private static func syncOverrides(_ options: CommandLineArguments) -> SyncCommands.Overrides {
        var overrides = SyncCommands.Overrides()
        overrides.host = options.string("server")
        overrides.database = options.string("database")
        overrides.user = options.string("user")
        overrides.port = options.integer("port")
        overrides.insecure = options.contains("insecure")
        overrides.certificateAuthority = options.path("ca-file")
        overrides.askPassword = options.contains("ask-password")
        return overrides
    }

    /// The form file named on the command line, for the window to open.
    static func form(_ options: CommandLineArguments) -> String? {
        options.operands.first
    }
}
