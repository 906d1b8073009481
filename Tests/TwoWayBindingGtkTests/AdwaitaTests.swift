import CTwoWayBindingAdw
import TwoWayBinding
import TwoWayBindingAdw
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// `TwoWayBindingAdw`: a message dialog answering once and keeping itself
/// alive until then, toasts with a button and their dismissal, the About
/// window standing over its parent.
final class AdwaitaTests: GtkTestCase {
    func testAMessageDialog_answersOnce_andNeedsNobodyToKeepIt() throws {
        try MainActor.assumeIsolated {
            Adwaita.initialize()
            let parent = try Window.wrapping(gtk_window_new()!)
            defer { parent.close() }
            var answers: [String] = []
            weak var shown: MessageDialog?
            do {
                let dialog = MessageDialog(over: parent, heading: "Carry Over Unsent Answers?", body: "Answers to version 1…")
                dialog.addResponse("keep", label: "_Keep")
                dialog.addResponse("carry", label: "_Carry Over", appearance: .suggested)
                dialog.addResponse("delete", label: "_Delete", appearance: .destructive)
                dialog.defaultResponse = "carry"
                dialog.closeResponse = "keep"
                XCTAssertEqual(dialog.defaultResponse, "carry")
                XCTAssertEqual(dialog.closeResponse, "keep")
                dialog.present { answers.append($0) }
                XCTAssertTrue(dialog.isShown)
                XCTAssertEqual(try dialog.window.value(of: .string("heading")), "Carry Over Unsent Answers?")
                let transient = gtk_window_get_transient_for(dialog.window.pointer!.cast(to: GtkWindow.self))
                XCTAssertEqual(transient.map(UnsafeMutableRawPointer.init), parent.pointer.map(UnsafeMutableRawPointer.init))
                shown = dialog
            }
            XCTAssertNotNil(shown, "shown, the dialog keeps itself")
            let dialogWindow = try XCTUnwrap(shown?.window)
            XCTAssertTrue(dialogWindow.isVisible)
            shown?.respond("carry")
            GtkTest.pump()
            XCTAssertEqual(answers, ["carry"], "answered once: its closing says nothing more")
            XCTAssertNil(shown, "answered, it lets itself go")
            XCTAssertFalse(dialogWindow.isVisible, "answered from code, it closes as a button's answer does")
        }
    }

    func testAToast_callsItsButton_andSaysWhenItIsGone() throws {
        try MainActor.assumeIsolated {
            Adwaita.initialize()
            let overlay = try ToastOverlay(Widget.wrapping(adw_toast_overlay_new()!))
            let window = GtkTest.window(overlay.widget.pointer!)
            var log: [String] = []
            let first = overlay.show("Response deleted", button: "_Undo", urgent: true, onButton: { log.append("undo") }) {
                log.append("first gone")
            }
            XCTAssertTrue(first.isShown)
            first.dismiss()
            GtkTest.pump()
            XCTAssertFalse(first.isShown)
            XCTAssertEqual(log, ["first gone"])
            first.dismiss()
            XCTAssertEqual(log, ["first gone"], "a second dismissal does nothing")

            let second = overlay.show("Saved", timeout: 0)
            XCTAssertTrue(second.isShown)
            GtkTest.destroy(window)
            GtkTest.pump()
            XCTAssertFalse(second.isShown, "the overlay going takes its toasts")
            let late = overlay.show("Too late")
            XCTAssertFalse(late.isShown, "a destroyed overlay shows nothing")
            late.dismiss()
        }
    }

    func testAToastOverlay_refusesOtherWidgets() throws {
        try MainActor.assumeIsolated {
            let label = try Widget.wrapping(gtk_label_new("")!)
            let window = GtkTest.window(label.pointer!)
            defer { GtkTest.destroy(window) }
            XCTAssertThrowsError(try ToastOverlay(label)) { error in
                XCTAssertEqual(error as? WidgetError, .wrongType(expected: "AdwToastOverlay", actual: "GtkLabel"))
            }
        }
    }

    func testTheAboutWindow_saysWhatItIsGiven_overItsParent() throws {
        try MainActor.assumeIsolated {
            Adwaita.initialize()
            let parent = try Window.wrapping(gtk_window_new()!)
            defer { parent.close() }
            let about = AboutWindow(
                applicationName: "Survey Form", icon: "io.github.surveyform.SurveyForm", version: "1.2",
                developerName: "The developers", comments: "Collect answers", license: .mit,
                website: "https://example.org", issueURL: "https://example.org/issues", translatorCredits: "Ada"
            )
            about.present(over: parent)
            defer { about.window.close() }
            XCTAssertEqual(try about.window.value(of: .string("application-name")), "Survey Form")
            XCTAssertEqual(try about.window.value(of: .string("version")), "1.2")
            XCTAssertEqual(try about.window.value(of: .string("issue-url")), "https://example.org/issues")
            XCTAssertEqual(adw_about_window_get_license_type(OpaquePointer(about.window.pointer!)), GTK_LICENSE_MIT_X11)
            XCTAssertEqual(try about.window.value(of: .boolean("modal")), true)
            let transient = gtk_window_get_transient_for(about.window.pointer!.cast(to: GtkWindow.self))
            XCTAssertEqual(transient.map(UnsafeMutableRawPointer.init), parent.pointer.map(UnsafeMutableRawPointer.init))
        }
    }

    func testRowsInAGroup_activateAndClick_andShowTextAsTyped() throws {
        try MainActor.assumeIsolated {
            Adwaita.initialize()
            let group = PreferencesGroup(title: "2 Stored Responses", description: "The 50 newest are listed.")
            let window = GtkTest.window(group.widget.pointer!)
            defer { GtkTest.destroy(window) }
            XCTAssertEqual(try group.widget.value(of: .string("title")), "2 Stored Responses")
            XCTAssertEqual(try group.widget.value(of: .string("description")), "The 50 newest are listed.")
            let row = ActionRow(title: "<b>Ada</b> & co", subtitle: "first answer")
            group.add(row)
            XCTAssertEqual(try row.widget.value(of: .string("title")), "<b>Ada</b> & co")
            XCTAssertEqual(try row.widget.value(of: .boolean("use-markup")), false, "typed text is never markup")
            XCTAssertEqual(try row.widget.value(of: .string("subtitle")), "first answer")
            let delete = Button(iconName: "user-trash-symbolic", tooltip: "Delete Response")
            row.addSuffix(delete)
            XCTAssertEqual(delete.tooltip, "Delete Response")
            XCTAssertEqual(delete.accessibleLabel, "Delete Response")
            var log: [String] = []
            let activated = row.onActivated { log.append("open") }
            let clicked = delete.onClicked { log.append("delete") }
            XCTAssertEqual(try row.widget.value(of: .boolean("activatable")), true)
            twb_signal_emit(UnsafeMutableRawPointer(row.widget.pointer!), "activated")
            twb_signal_emit(UnsafeMutableRawPointer(delete.pointer!), "clicked")
            XCTAssertEqual(log, ["open", "delete"])
            activated.cancel()
            clicked.cancel()
            twb_signal_emit(UnsafeMutableRawPointer(delete.pointer!), "clicked")
            XCTAssertEqual(log, ["open", "delete"], "ended tokens hear nothing")

            let empty = StatusPage(iconName: "document-edit-symbolic", title: "No Responses Yet", description: "Listed here.", compact: true)
            XCTAssertEqual(try empty.widget.value(of: .string("title")), "No Responses Yet")
            XCTAssertTrue(gtk_widget_has_css_class(empty.widget.pointer!, "compact") != 0)
            g_object_ref_sink(UnsafeMutableRawPointer(empty.widget.pointer!))
            g_object_unref(UnsafeMutableRawPointer(empty.widget.pointer!))
        }
    }

    func testAGroupsTitleAndDescriptionChange_andTakeAnyWidget() throws {
        MainActor.assumeIsolated {
            Adwaita.initialize()
            let group = PreferencesGroup()
            let window = GtkTest.window(group.widget.pointer!)
            defer { GtkTest.destroy(window) }
            XCTAssertEqual(group.title, "")
            group.title = "Household member 1"
            group.description = "Everyone who sleeps here"
            XCTAssertEqual(group.title, "Household member 1")
            XCTAssertEqual(group.description, "Everyone who sleeps here")
            group.description = ""
            XCTAssertEqual(group.description, "")
            let card = Box(vertical: true)
            group.add(card)
            XCTAssertNotNil(gtk_widget_get_ancestor(card.pointer!, adw_preferences_group_get_type()))
            let remove = Button(iconName: "user-trash-symbolic", tooltip: "Remove member 1")
            group.setHeaderSuffix(remove)
            XCTAssertNotNil(gtk_widget_get_ancestor(remove.pointer!, adw_preferences_group_get_type()))
        }
    }

    func testEntryRowsInAnExpanderRow_bindBothWays_andAGroupIsTakenOnlyAsOne() throws {
        try MainActor.assumeIsolated {
            Adwaita.initialize()
            let group = PreferencesGroup(title: "Form Servers")
            let window = GtkTest.window(group.widget.pointer!)
            defer { GtkTest.destroy(window) }
            let server = ExpanderRow(title: "https://<b>central</b>.example", subtitle: "collector")
            let sameGroup = try PreferencesGroup(group.widget)
            sameGroup.add(server.widget)
            XCTAssertEqual(try server.widget.value(of: .string("title")), "https://<b>central</b>.example")
            XCTAssertEqual(try server.widget.value(of: .boolean("use-markup")), false, "an address is never markup")
            XCTAssertEqual(try server.widget.value(of: .string("subtitle")), "collector")
            XCTAssertThrowsError(try PreferencesGroup(server.widget), "an expander row is not a group")

            let user = Entry.row(title: "User Name")
            let password = Entry.row(title: "Password", isPassword: true)
            server.add(user)
            server.add(password)
            XCTAssertNotNil(gtk_widget_get_ancestor(password.pointer!, adw_expander_row_get_type()))
            XCTAssertTrue(twb_instance_is_a(UnsafeMutableRawPointer(password.pointer!), adw_password_entry_row_get_type()) != 0)
            XCTAssertTrue(twb_instance_is_a(UnsafeMutableRawPointer(user.pointer!), adw_password_entry_row_get_type()) == 0)
            XCTAssertEqual(try user.value(of: .string("title")), "User Name")

            let login = Observable("collector")
            user.bind(with: login)
            XCTAssertEqual(user.text, "collector", "the model's value shows")
            // As typed: the row's own editable changes.
            gtk_editable_set_text(user.pointer!.opaque, "enumerator")
            XCTAssertEqual(login.value, "enumerator", "a typed change reaches the model")

            XCTAssertFalse(server.isExpanded)
            server.isExpanded = true
            XCTAssertTrue(server.isExpanded)
        }
    }
}
