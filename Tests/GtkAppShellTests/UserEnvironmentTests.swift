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
}
