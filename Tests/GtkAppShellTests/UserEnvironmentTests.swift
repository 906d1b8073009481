import Foundation
import GtkAppShell
import TwoWayBindingGtk
import XCTest

/// What GLib says of the user's folders and languages, and gettext through
/// the library.
final class UserEnvironmentTests: XCTestCase {
    func testTheDataDirectory_isGLibsAbsoluteFolder() {
        let directory = UserEnvironment.dataDirectory
        XCTAssertTrue(directory.path.hasPrefix("/"), directory.path)
        XCTAssertTrue(directory.hasDirectoryPath)
        if let xdg = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            XCTAssertEqual(directory.standardizedFileURL.path, URL(fileURLWithPath: xdg).standardizedFileURL.path)
        }
    }

    func testTheLanguageNames_endInTheCLocale() {
        let names = UserEnvironment.languageNames
        XCTAssertEqual(names.last, "C", "\(names)")
    }

    func testTheLanguageNames_followLANGUAGE_mostWantedFirst() {
        let saved = getenv("LANGUAGE").map { String(cString: $0) }
        defer {
            if let saved { setenv("LANGUAGE", saved, 1) } else { unsetenv("LANGUAGE") }
        }
        setenv("LANGUAGE", "de_AT:fr", 1)
        let names = UserEnvironment.languageNames
        XCTAssertEqual(names.filter { $0 != "C" && !$0.hasPrefix("C.") }, ["de_AT", "de", "fr"], "\(names)")
        XCTAssertEqual(names.last, "C")
    }

    func testGettext_withoutACatalog_givesTheMessage_andPicksThePluralByCount() {
        XCTAssertEqual(Gettext.translate("A message no catalog has"), "A message no catalog has")
        XCTAssertEqual(Gettext.translate("%d response", plural: "%d responses", count: 1), "%d response")
        XCTAssertEqual(Gettext.translate("%d response", plural: "%d responses", count: 2), "%d responses")
        XCTAssertEqual(Gettext.translate("%d response", plural: "%d responses", count: 0), "%d responses")
        XCTAssertEqual(Gettext.translate("%d response", plural: "%d responses", count: -3), "%d responses",
                       "a negative count reads as none")
    }

    func testTheDesktopLocale_followsLCAllThenTheCategoryThenLANG() {
        func identifier(_ category: UserEnvironment.LocaleCategory, _ environment: [String: String]) -> String {
            UserEnvironment.locale(for: category, environment: environment).identifier
        }
        XCTAssertEqual(identifier(.time, ["LANG": "de_DE.UTF-8"]), "de_DE")
        XCTAssertEqual(identifier(.time, ["LANG": "de_DE.UTF-8", "LC_TIME": "fr_FR.UTF-8"]), "fr_FR")
        XCTAssertEqual(identifier(.numeric, ["LANG": "en_GB.UTF-8", "LC_TIME": "fr_FR.UTF-8"]), "en_GB", "another category's variable is not read")
        XCTAssertEqual(identifier(.numeric, ["LC_ALL": "nl_NL@euro", "LC_NUMERIC": "fr_FR"]), "nl_NL")
        XCTAssertEqual(identifier(.time, ["LC_ALL": "", "LANG": "es_ES"]), "es_ES", "an empty variable is unset")
        XCTAssertEqual(identifier(.time, ["LANG": "C.UTF-8"]), Locale.current.identifier)
        XCTAssertEqual(UserEnvironment.locale(for: .numeric, environment: ["LANG": "de_DE.UTF-8"]).decimalSeparator, ",")
        XCTAssertNil(UserEnvironment.chosenLocale(for: .time, environment: ["LANG": "C.UTF-8"]), "C and POSIX choose none")
        XCTAssertNil(UserEnvironment.chosenLocale(for: .time, environment: ["LC_ALL": "POSIX", "LANG": "de_DE"]))
        XCTAssertEqual(UserEnvironment.chosenLocale(for: .time, environment: ["LANG": "de_DE.UTF-8"])?.identifier, "de_DE")
    }
}
