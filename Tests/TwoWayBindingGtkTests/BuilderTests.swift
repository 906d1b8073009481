import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

final class BuilderTests: GtkTestCase {
    private static let ui = """
        <interface>
          <object class="GtkBox" id="formBox">
            <child><object class="GtkEntry" id="nameEntry"/></child>
            <child>
              <object class="GtkSpinButton" id="yearsSpinButton">
                <property name="adjustment">
                  <object class="GtkAdjustment" id="yearsAdjustment">
                    <property name="upper">50</property>
                    <property name="step-increment">1</property>
                  </object>
                </property>
              </object>
            </child>
            <child><object class="GtkSwitch" id="currentEmployerSwitch"/></child>
          </object>
        </interface>
        """

    func testTypedLookups_wrapAndBind() throws {
        try MainActor.assumeIsolated {
            let builder = try Builder(string: Self.ui)
            let formBox = try builder.object("formBox", as: Widget.self)
            let window = GtkTest.window(formBox.pointer!)
            defer { GtkTest.destroy(window) }

            let nameEntry = try builder.object("nameEntry", as: Entry.self)
            let yearsSpinButton = try builder.object("yearsSpinButton", as: SpinButton.self)
            let name = Observable("Ada"), years = Observable(80.0)
            nameEntry.bind(with: name)
            yearsSpinButton.bind(with: years)
            XCTAssertEqual(nameEntry.text, "Ada")
            XCTAssertEqual(years.value, 50, "the .ui adjustment's upper bound applies")
            XCTAssertTrue(try builder.object("nameEntry", as: Entry.self) === nameEntry)

            let adjustment = try builder.object("yearsAdjustment", ofType: gtk_adjustment_get_type())
            XCTAssertEqual(gtk_adjustment_get_upper(UnsafeMutableRawPointer(adjustment).assumingMemoryBound(to: GtkAdjustment.self)), 50)
        }
    }

    func testLookupErrors_nameTheIdAndTheTypes() throws {
        try MainActor.assumeIsolated {
            let builder = try Builder(string: Self.ui)
            let formBox = try builder.object("formBox", as: Widget.self)
            let window = GtkTest.window(formBox.pointer!)
            defer { GtkTest.destroy(window) }

            XCTAssertThrowsError(try builder.object("nameEntry", as: Switch.self)) { error in
                XCTAssertEqual(error as? BuilderError, .wrongType(id: "nameEntry", expected: "GtkSwitch", actual: "GtkEntry"))
                XCTAssertEqual("\(error)", "object \"nameEntry\" is a GtkEntry, expected a GtkSwitch")
            }
            XCTAssertThrowsError(try builder.object("missingEntry", as: Entry.self)) { error in
                XCTAssertEqual(error as? BuilderError, .missingObject(id: "missingEntry", expected: "GtkEditable"))
            }
            XCTAssertThrowsError(try builder.object("yearsAdjustment", as: Widget.self)) { error in
                XCTAssertEqual(error as? BuilderError, .wrongType(id: "yearsAdjustment", expected: "GtkWidget", actual: "GtkAdjustment"))
            }
        }
    }

    func testLoadErrors_carryGtksMessage() throws {
        try MainActor.assumeIsolated {
            XCTAssertThrowsError(try Builder(string: "<interface><object class=\"NoSuchWidget\"/></interface>")) { error in
                guard case .cannotLoad(let source, let message)? = error as? BuilderError else {
                    return XCTFail("unexpected \(error)")
                }
                XCTAssertEqual(source, "string")
                XCTAssertTrue(message.contains("NoSuchWidget"), message)
            }
            XCTAssertThrowsError(try Builder(file: "/nonexistent/form-window.ui"))
            XCTAssertThrowsError(try Builder(resource: "/io/github/surveyform/missing.ui"))
        }
    }
}
