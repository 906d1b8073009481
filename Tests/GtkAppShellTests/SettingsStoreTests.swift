import Foundation
import GtkAppShell
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// `SettingsStore`: a schema found beside the program, each kind of key read
/// and written, and no store for a schema nowhere to be found.
final class SettingsStoreTests: GtkTestCase {
    private static let schemaID = "io.github.surveyform.SettingsStoreTest"

    /// A compiled schema with one key of each kind, in a folder of its own.
    private func compiledSchema() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <schemalist>
          <schema id="\(Self.schemaID)" path="/io/github/surveyform/SettingsStoreTest/">
            <key name="width" type="i"><default>960</default><summary>Width</summary></key>
            <key name="kiosk" type="b"><default>false</default><summary>Kiosk</summary></key>
            <key name="host" type="s"><default>''</default><summary>Host</summary></key>
            <key name="recent" type="as"><default>[]</default><summary>Recent</summary></key>
          </schema>
        </schemalist>
        """.write(to: folder.appendingPathComponent("\(Self.schemaID).gschema.xml"), atomically: true, encoding: .utf8)
        let compile = Process()
        compile.executableURL = URL(fileURLWithPath: "/usr/bin/glib-compile-schemas")
        compile.arguments = ["--strict", folder.path]
        try compile.run()
        compile.waitUntilExit()
        XCTAssertEqual(compile.terminationStatus, 0, "glib-compile-schemas")
        return folder
    }

    func testEachKindOfKey_readsItsDefault_andWhatWasWritten() throws {
        let folder = try compiledSchema()
        defer { try? FileManager.default.removeItem(at: folder) }
        try MainActor.assumeIsolated {
            let settings = try XCTUnwrap(SettingsStore._inMemory(schemaID: Self.schemaID, alsoLookingIn: ["/nonexistent", folder.path]))
            XCTAssertEqual(settings.integer("width"), 960)
            XCTAssertFalse(settings.boolean("kiosk"))
            XCTAssertEqual(settings.string("host"), "")
            XCTAssertEqual(settings.strings("recent"), [])
            settings.setInteger("width", 1_100)
            settings.setBoolean("kiosk", true)
            settings.setString("host", "db.example.org")
            settings.setStrings("recent", ["/forms/visit.md", "/forms/intake form.xlsx"])
            SettingsStore.flush()
            XCTAssertEqual(settings.integer("width"), 1_100)
            XCTAssertTrue(settings.boolean("kiosk"))
            XCTAssertEqual(settings.string("host"), "db.example.org")
            XCTAssertEqual(settings.strings("recent"), ["/forms/visit.md", "/forms/intake form.xlsx"])
            settings.setInteger("width", Int.max)
            XCTAssertEqual(settings.integer("width"), Int(Int32.max), "clamped to the key's 32 bits")
        }
    }

    func testASchemaNowhereToBeFound_givesNoStore() {
        MainActor.assumeIsolated {
            XCTAssertNil(SettingsStore(schemaID: "io.github.surveyform.NoSuchSchema", alsoLookingIn: ["/nonexistent"]))
        }
    }
}
