import CTwoWayBindingGtkShims
import FormEngine
import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

/// Labels and hints in ODK's Markdown and HTML subset shown as Pango markup,
/// heard by a screen reader as their words.
final class LabelMarkupTests: GtkTestCase {
    func testRunsBecomeEscapedSpans() {
        XCTAssertEqual(LabelMarkup.pango(FormattedText(parsing: #"# <span style="color:red">Intro</span>"#)),
                       #"<span size="xx-large" weight="bold" foreground="red">Intro</span>"#)
        XCTAssertEqual(LabelMarkup.pango(FormattedText(parsing: "**a < b** & [c](https://x.org/?a=1&b=2)")),
                       #"<span weight="bold">a &lt; b</span> &amp; <a href="https://x.org/?a=1&amp;b=2">c</a>"#)
        XCTAssertEqual(LabelMarkup.pango(FormattedText(parsing: "plain 'quoted' \"text\"")), "plain &apos;quoted&apos; &quot;text&quot;")
    }

    func testACardShowsTheMarksAndNamesItsControlByTheWords() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("name", survey: """
                | | type | name | label | hint |
                | | text | name | **Full** name <span style="color:blue">(as written)</span> | *Family* name first<br>then given names |
                """)
            defer { rendered.close() }
            let labels = rendered.all(Label.self)
            let title = try XCTUnwrap(labels.first { $0.text == "Full name (as written)" }, "\(labels.map(\.text))")
            XCTAssertTrue(title.markup.contains(#"<span weight="bold">Full</span>"#), title.markup)
            XCTAssertTrue(title.markup.contains(#"foreground="blue""#), title.markup)
            XCTAssertTrue(labels.contains { $0.text == "Family name first\nthen given names" })
            let entry = try rendered.widget(Entry.self)
            XCTAssertEqual(entry.accessibleLabel, "Full name (as written)")
            XCTAssertEqual(entry.accessibleDescription, "Family name first\nthen given names")
            XCTAssertEqual(rendered.state.label.value, "Full name (as written)")
        }
    }

    func testGuidanceIsShownOnRequest() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("age", survey: """
                | | type | name | label | guidance_hint |
                | | integer | age | Age | Ask for the **last** birthday, not the next one. |
                """)
            defer { rendered.close() }
            let toggle = try rendered.widget(ToggleButton.self)
            let guidance = try XCTUnwrap(rendered.all(Label.self).first { $0.text == "Ask for the last birthday, not the next one." })
            XCTAssertFalse(guidance.isVisible, "collapsed until asked for")
            twb_signal_emit(toggle.pointer, "clicked")
            XCTAssertTrue(toggle.isActive)
            XCTAssertTrue(guidance.isVisible)
            twb_signal_emit(toggle.pointer, "clicked")
            XCTAssertFalse(guidance.isVisible)
        }
    }
}
