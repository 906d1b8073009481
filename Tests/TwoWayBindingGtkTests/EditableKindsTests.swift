import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// `Entry` binds any `GtkEditable`, each through its own signals.
final class EditableKindsTests: GtkTestCase {
    func testEveryEditable_bindsBothWays() throws {
        try MainActor.assumeIsolated {
            let kinds: [(String, () -> UnsafeMutablePointer<GtkWidget>)] = [
                ("GtkEntry", { gtk_entry_new() }),
                ("GtkPasswordEntry", { gtk_password_entry_new() }),
                ("GtkSearchEntry", { gtk_search_entry_new() }),
                ("GtkText", { gtk_text_new() }),
                ("GtkEditableLabel", { gtk_editable_label_new("") }),
            ]
            for (kind, make) in kinds {
                let widget = make()
                let window = GtkTest.window(widget)
                defer { GtkTest.destroy(window) }
                XCTAssertTrue(Entry.canWrap(widget), kind)
                let value = Observable("Ad")
                let binding = try Entry.wrapping(widget) <-> value
                XCTAssertEqual(String(cString: gtk_editable_get_text(widget.opaque)), "Ad", kind)

                var position: gint = 2
                gtk_editable_insert_text(widget.opaque, "a", -1, &position)
                XCTAssertEqual(value.value, "Ada", "\(kind): an edit reaches the model")
                value.value = "Grace"
                XCTAssertEqual(String(cString: gtk_editable_get_text(widget.opaque)), "Grace", "\(kind): the model reaches it")
                XCTAssertEqual(binding._controlWriteCount, 2, "\(kind): the edit was not written back")
            }
        }
    }

    func testAWidgetThatIsNoEditable_isRefusedByName() throws {
        try MainActor.assumeIsolated {
            let builder = try Builder(string: """
                <interface><object class="GtkLabel" id="name"/></interface>
                """)
            XCTAssertThrowsError(try builder.object("name", as: Entry.self)) { error in
                XCTAssertEqual(
                    error as? BuilderError,
                    .wrongType(id: "name", expected: "GtkEditable", actual: "GtkLabel")
                )
            }
            let label = g_object_ref_sink(gtk_label_new(nil))!
            defer { g_object_unref(label) }
            XCTAssertFalse(Entry.canWrap(label))
        }
    }
}
