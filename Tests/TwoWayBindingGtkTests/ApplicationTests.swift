import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// `Application`'s command-line hooks: options handled in the launching
/// process, and files to open.
final class ApplicationTests: GtkTestCase {
    func testLocalOptionsCanEndTheRunWithAStatus_beforeAnythingRegisters() {
        MainActor.assumeIsolated {
            let app = Application(id: "io.github.surveyform.OptionsTest", flags: G_APPLICATION_NON_UNIQUE)
            g_application_add_main_option(
                app.pointer.cast(to: GApplication.self), "answer", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE, "Answers", nil
            )
            var activated = false
            app.onActivate { activated = true }
            app.onLocalOptions { options in g_variant_dict_contains(options, "answer") != 0 ? 7 : -1 }
            XCTAssertEqual(app.run(arguments: ["test", "--answer"]), 7)
            XCTAssertFalse(activated, "an option that ends the run ends it before activation")
        }
    }

    func testFilesToOpenArriveAsPaths() {
        MainActor.assumeIsolated {
            let flags = GApplicationFlags(G_APPLICATION_HANDLES_OPEN.rawValue | G_APPLICATION_NON_UNIQUE.rawValue)
            let app = Application(id: "io.github.surveyform.OpenTest", flags: flags)
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
