import CTwoWayBindingGtkShims
import GtkTestSupport
import TwoWayBinding
import TwoWayBindingGtk
import XCTest

/// A button's text, read and changed while it is shown: one button whose
/// words follow what it will do.
final class ButtonTests: GtkTestCase {
    func testALabelSetIsWhatTheButtonReads_andAnUnderlineMarksItsMnemonicOnlyWhereTheButtonUsesThem() throws {
        try MainActor.assumeIsolated {
            let plain = Button(label: "Log In")
            XCTAssertEqual(plain.label, "Log In")
            plain.label = "Server_Settings"
            XCTAssertEqual(plain.label, "Server_Settings")
            // GtkLabel is opaque to Swift.
            let shown = OpaquePointer(try XCTUnwrap(gtk_button_get_child(try XCTUnwrap(plain.pointer).cast(to: GtkButton.self))))
            XCTAssertEqual(String(cString: gtk_label_get_text(shown)), "Server_Settings", "the user's text, underscore and all")

            let mnemonic = Button(label: "")
            gtk_button_set_use_underline(try XCTUnwrap(mnemonic.pointer).cast(to: GtkButton.self), 1)
            mnemonic.label = "_Server Settings…"
            let label = OpaquePointer(try XCTUnwrap(gtk_button_get_child(try XCTUnwrap(mnemonic.pointer).cast(to: GtkButton.self))))
            XCTAssertEqual(String(cString: gtk_label_get_text(label)), "Server Settings…")
            XCTAssertEqual(gtk_label_get_mnemonic_keyval(label), UInt32(GDK_KEY_S), "Alt+S")
        }
    }
}
