import CTwoWayBindingGtkShims
import TwoWayBinding
import GtkAppShell
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// `Application`'s command-line hooks: options handled in the launching
/// process, and files to open.
final class ApplicationTests: GtkTestCase {
    func testTheResourceBasePath_followsTheID_untilSetToNothing() {
        MainActor.assumeIsolated {
            let app = Application(id: "io.github.surveyform.ResourcesTest", flags: .nonUnique)
            XCTAssertEqual(app.resourceBasePath, "/io/github/surveyform/ResourcesTest")
            app.resourceBasePath = "/org/example/Other"
            XCTAssertEqual(app.resourceBasePath, "/org/example/Other")
            app.resourceBasePath = nil
            XCTAssertNil(app.resourceBasePath)
        }
    }

    func testLocalOptionsCanEndTheRunWithAStatus_beforeAnythingRegisters() {
        MainActor.assumeIsolated {
            let app = Application(id: "io.github.surveyform.OptionsTest", flags: .nonUnique)
            app.addOptions(
                [
                    CommandLineOption("answer", description: "Answers"),
                    CommandLineOption("name", argument: .string, description: "A name", placeholder: "NAME"),
                    CommandLineOption("output", argument: .path, description: "Where", placeholder: "PATH"),
                    CommandLineOption("port", argument: .integer, description: "A port", placeholder: "PORT"),
                ],
                operands: ("[FILE…]", "Files to open"), summary: "Tests options."
            )
            var activated = false
            var seen: [String] = []
            app.onActivate { activated = true }
            app.onLocalOptions { options in
                seen = [
                    options.string("name") ?? "-", options.path("output") ?? "-", options.integer("port").map(String.init) ?? "-",
                    options.contains("missing") ? "missing" : "-",
                ] + options.operands
                return options.contains("answer") ? 7 : -1
            }
            let status = app.run(arguments: [
                "test", "--answer", "--name", "Ada", "--output", "/tmp/out.csv", "--port", "5433", "a.md", "b c.xlsx",
            ])
            XCTAssertEqual(status, 7)
            XCTAssertEqual(seen, ["Ada", "/tmp/out.csv", "5433", "-", "a.md", "b c.xlsx"])
            XCTAssertFalse(activated, "an option that ends the run ends it before activation")
        }
    }

    func testFilesToOpenArriveAsPaths() {
        MainActor.assumeIsolated {
            let flags: Application.Flags = [.handlesOpen, .nonUnique]
            let app = Application(id: "io.github.surveyform.OpenTest", flags: flags)
            XCTAssertEqual(app.flags, flags)
            XCTAssertEqual(g_application_get_flags(app.pointer.cast(to: GApplication.self)).rawValue,
                           G_APPLICATION_HANDLES_OPEN.rawValue | G_APPLICATION_NON_UNIQUE.rawValue, "GLib's own flags")
            var opened: [[String]] = []
            app.onOpen { opened.append($0) }
            let gApplication = app.pointer.cast(to: GApplication.self)
            XCTAssertEqual(g_application_register(gApplication, nil, nil), 1)
            let paths = ["/tmp/visit.md", "/tmp/other form.xlsx"]
            var files: [OpaquePointer?] = paths.map { path in g_file_new_for_path(path) }
            defer { files.forEach { g_object_unref(UnsafeMutableRawPointer($0)) } }
            g_application_open(gApplication, &files, 2, "")
            XCTAssertEqual(opened, [["/tmp/visit.md", "/tmp/other form.xlsx"]])
        }
    }
}
