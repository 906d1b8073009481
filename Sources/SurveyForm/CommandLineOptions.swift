import CTwoWayBindingGtkShims

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
    case sync(SyncCommands.Command, SyncCommands.Overrides)
}

@MainActor
enum CommandLineOptions {
    static func add(to application: UnsafeMutablePointer<GtkApplication>) {
        let app = application.cast(to: GApplication.self)
        // In the order --help lists them.
        let options: [(name: String, argument: GOptionArg, description: String, placeholder: String?)] = [
            ("version", G_OPTION_ARG_NONE, tr("Show the version and exit"), nil),
            ("export-csv", G_OPTION_ARG_FILENAME, tr("Write every stored response to PATH as CSV and exit"), tr("PATH")),
            ("force", G_OPTION_ARG_NONE, tr("With --export-csv, replace PATH if it exists"), nil),
            ("form", G_OPTION_ARG_FILENAME, tr("With --export-csv, export the responses to the form in FORM"), tr("FORM")),
            ("kiosk", G_OPTION_ARG_NONE, tr("Let respondents fill in the form: hide stored responses and export"), nil),
            ("describe-form", G_OPTION_ARG_FILENAME, tr("Print what the form file FORM contains as JSON and exit"), tr("FORM")),
            ("screenshot", G_OPTION_ARG_FILENAME, tr("Render the window to PATH as PNG and exit"), tr("PATH")),
            ("sync-status", G_OPTION_ARG_NONE, tr("Show where the stored responses stand on their way to the server and exit"), nil),
            ("sync-now", G_OPTION_ARG_NONE, tr("Send every response the server does not have yet and exit"), nil),
            ("server-setup", G_OPTION_ARG_NONE, tr("Create or update Survey Form's tables on the server (as their owner) and exit"), nil),
            ("store-password", G_OPTION_ARG_NONE, tr("Keep the server password read from standard input in the keyring and exit"), nil),
            ("insecure", G_OPTION_ARG_NONE, tr("Connect to the server without checking its certificate, or encrypting when it offers no TLS"), nil),
            ("from-server", G_OPTION_ARG_NONE, tr("With --export-csv, export what the server holds into the folder PATH, a file per form version"), nil),
            ("server", G_OPTION_ARG_STRING, tr("With the sync options, the server HOST instead of the one in Preferences"), tr("HOST")),
            ("database", G_OPTION_ARG_STRING, tr("With the sync options, the server's DATABASE"), tr("DATABASE")),
            ("user", G_OPTION_ARG_STRING, tr("With the sync options, log in to the server as USER"), tr("USER")),
            ("port", G_OPTION_ARG_INT, tr("With the sync options, the server's PORT"), tr("PORT")),
            ("ca-file", G_OPTION_ARG_FILENAME, tr("With the sync options, also trust the certificate authority in the PEM file PATH"), tr("PATH")),
            ("publish-form", G_OPTION_ARG_FILENAME, tr("Put the form file FORM on the server, so that its export lays out the form's columns, and exit"), tr("FORM")),
        ]
        for option in options {
            g_application_add_main_option(app, option.name, 0, G_OPTION_FLAG_NONE, option.argument, option.description,
                                          option.placeholder)
        }
        // Read here to check the form before anything opens; GApplication
        // (G_APPLICATION_HANDLES_OPEN) then opens it, in the running
        // instance when there is one.
        g_application_add_main_option(
            app, "", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_FILENAME_ARRAY, tr("The form to open"), nil
        )
        g_application_set_option_context_parameter_string(app, tr("[FORM]"))
        g_application_set_option_context_summary(app, tr("A survey form that stores its responses on this computer."))
    }

    static func parse(_ options: UnsafeMutablePointer<GVariantDict>) -> CommandLineMode {
        if g_variant_dict_contains(options, "version") != 0 { return .version }
        let force = g_variant_dict_contains(options, "force") != 0
        if let path = filename(options, "export-csv") {
            if g_variant_dict_contains(options, "from-server") != 0 {
                return .sync(.exportFromServer(folder: path, replacing: force), syncOverrides(options))
            }
            return .exportCSV(path: path, force: force, form: filename(options, "form"))
        }
        if let path = filename(options, "screenshot") { return .screenshot(path: path) }
        if let path = filename(options, "publish-form") { return .sync(.publishForm(path: path), syncOverrides(options)) }
        let commands: [(String, SyncCommands.Command)] = [
            ("sync-status", .status), ("sync-now", .sendNow), ("server-setup", .setUpServer), ("store-password", .storePassword),
        ]
        if let command = commands.first(where: { g_variant_dict_contains(options, $0.0) != 0 })?.1 {
            return .sync(command, syncOverrides(options))
        }
        if let path = filename(options, "describe-form") { return .describeForm(path: path) }
        return .run(kiosk: g_variant_dict_contains(options, "kiosk") != 0)
    }

    /// `--server`, `--port`, `--database`, `--user`, `--insecure` and `--ca-file`.
    private static func syncOverrides(_ options: UnsafeMutablePointer<GVariantDict>) -> SyncCommands.Overrides {
        var overrides = SyncCommands.Overrides()
        overrides.host = string(options, "server")
        overrides.database = string(options, "database")
        overrides.user = string(options, "user")
        if let value = g_variant_dict_lookup_value(options, "port", nil) {
            overrides.port = Int(g_variant_get_int32(value))
            g_variant_unref(value)
        }
        overrides.insecure = g_variant_dict_contains(options, "insecure") != 0
        overrides.certificateAuthority = filename(options, "ca-file")
        return overrides
    }

    /// The form file named on the command line, for the window to open.
    static func form(_ options: UnsafeMutablePointer<GVariantDict>) -> String? {
        forms(options).first
    }

    /// The arguments that are no option (G_OPTION_REMAINING, named "").
    private static func forms(_ options: UnsafeMutablePointer<GVariantDict>) -> [String] {
        guard let value = g_variant_dict_lookup_value(options, "", nil) else { return [] }
        defer { g_variant_unref(value) }
        guard let array = g_variant_get_bytestring_array(value, nil) else { return [] }
        defer { g_free(array) }
        return stringArray(fromNullTerminated: array)
    }

    /// A G_OPTION_ARG_STRING value.
    private static func string(_ options: UnsafeMutablePointer<GVariantDict>, _ name: String) -> String? {
        guard let value = g_variant_dict_lookup_value(options, name, nil) else { return nil }
        defer { g_variant_unref(value) }
        return String(cString: g_variant_get_string(value, nil))
    }

    /// A G_OPTION_ARG_FILENAME value: a byte string in the file system's encoding.
    private static func filename(_ options: UnsafeMutablePointer<GVariantDict>, _ name: String) -> String? {
        guard let value = g_variant_dict_lookup_value(options, name, nil) else { return nil }
        defer { g_variant_unref(value) }
        return String(cString: g_variant_get_bytestring(value))
    }
}
