import CTwoWayBindingGtkShims
import Glibc

/// The program's translations through gettext, as GTK and GLib read theirs:
/// set up once at start, then asked from any thread.
public enum Gettext {
    /// Makes `domain` the program's text domain, its catalogs found under
    /// `directory` (`<directory>/<language>/LC_MESSAGES/<domain>.mo`), read
    /// as UTF-8; the user's locale is taken from the environment first.
    public static func setUp(domain: String, directory: String) {
        setlocale(LC_ALL, "")
        twb_textdomain_init(domain, directory)
    }

    /// `message` in the user's language, or `message` itself when it has
    /// no translation.
    public static func translate(_ message: String) -> String {
        // gettext hands back its argument when there is no translation:
        // copy it while the temporary C string still exists.
        message.withCString { String(cString: twb_gettext($0)) }
    }

    /// The singular or plural form for `count`, in the user's language
    /// (whose plural rules may have more than two forms).
    public static func translate(_ singular: String, plural: String, count: Int) -> String {
        singular.withCString { one in
            plural.withCString { many in String(cString: twb_ngettext(one, many, UInt(max(count, 0)))) }
        }
    }
}
