import CTwoWayBindingGtkShims
public import TwoWayBindingGtk

/// An option the application's command line takes (`--export-csv PATH`),
/// which GApplication parses and lists in `--help`.
public struct CommandLineOption: Sendable {
    /// What follows the option.
    public enum Argument: Sendable {
        /// Nothing: the option is a switch.
        case none
        /// A string.
        case string
        /// A file's path, in the file system's encoding.
        case path
        /// A whole number.
        case integer
    }

    /// The long name, without its dashes.
    public let name: String
    /// What the option takes after its name, if anything.
    public let argument: Argument
    /// The line `--help` shows for it.
    public let description: String
    /// The name `--help` gives its argument (`PATH`).
    public let placeholder: String?

    /// An option named `name` (without dashes), as `--help` will list it.
    public init(_ name: String, argument: Argument = .none, description: String, placeholder: String? = nil) {
        self.name = name
        self.argument = argument
        self.description = description
        self.placeholder = placeholder
    }
}

/// The options given on the command line, as the application's
/// `onLocalOptions` handler reads them. Valid during that call only.
@MainActor
public struct CommandLineArguments {
    private let options: UnsafeMutablePointer<GVariantDict>

    init(_ options: UnsafeMutablePointer<GVariantDict>) {
        self.options = options
    }

    /// Whether the option `name` was given.
    public func contains(_ name: String) -> Bool {
        g_variant_dict_contains(options, name) != 0
    }

    /// The argument of the `.string` option `name`, if given.
    public func string(_ name: String) -> String? {
        value(name) { String(cString: g_variant_get_string($0, nil)) }
    }

    /// The argument of the `.path` option `name`, if given.
    public func path(_ name: String) -> String? {
        value(name) { String(cString: g_variant_get_bytestring($0)) }
    }

    /// The argument of the `.integer` option `name`, if given.
    public func integer(_ name: String) -> Int? {
        value(name) { Int(g_variant_get_int32($0)) }
    }

    /// The arguments that are no option (the files to open), when the
    /// application takes them (`addOptions(_:operands:summary:)`).
    public var operands: [String] {
        value("") { value -> [String] in
            guard let array = g_variant_get_bytestring_array(value, nil) else { return [] }
            defer { g_free(array) }
            return stringArray(fromNullTerminated: array)
        } ?? []
    }

    private func value<T>(_ name: String, _ read: (OpaquePointer) -> T) -> T? {
        guard let value = g_variant_dict_lookup_value(options, name, nil) else { return nil }
        defer { g_variant_unref(value) }
        return read(value)
    }
}

extension Application {
    /// Adds `options` to the command line, in the order `--help` lists them;
    /// `operands`, if given, describes the arguments that are no option
    /// (`"[FORM]"` and what they are), and `summary` what the program does.
    public func addOptions(_ options: [CommandLineOption], operands: (placeholder: String, description: String)? = nil, summary: String? = nil) {
        let application = pointer.cast(to: GApplication.self)
        for option in options {
            let argument = switch option.argument {
            case .none: G_OPTION_ARG_NONE
            case .string: G_OPTION_ARG_STRING
            case .path: G_OPTION_ARG_FILENAME
            case .integer: G_OPTION_ARG_INT
            }
            g_application_add_main_option(
                application, option.name, 0, G_OPTION_FLAG_NONE, argument, option.description, option.placeholder
            )
        }
        if let operands {
            // G_OPTION_REMAINING is the option named "".
            g_application_add_main_option(
                application, "", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_FILENAME_ARRAY, operands.description, nil
            )
            g_application_set_option_context_parameter_string(application, operands.placeholder)
        }
        if let summary { g_application_set_option_context_summary(application, summary) }
    }
}
