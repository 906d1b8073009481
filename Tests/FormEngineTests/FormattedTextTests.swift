@testable import FormEngine
import XCTest

/// Labels and hints in ODK's Markdown and HTML subset, as Collect renders
/// them: styled runs, and the words alone for a screen reader.
final class FormattedTextTests: XCTestCase {
    private func runs(_ text: String) -> [(String, FormattedText.Style)] {
        FormattedText(parsing: text).runs.map { ($0.text, $0.style) }
    }

    private func style(_ change: (inout FormattedText.Style) -> Void) -> FormattedText.Style {
        var style = FormattedText.Style()
        change(&style)
        return style
    }

    func testMarkdownEmphasisHeadingsAndLinks() {
        let bold = style { $0.isBold = true }
        let italic = style { $0.isItalic = true }
        XCTAssertEqual(runs("**Label**").map(\.0), ["Label"])
        XCTAssertEqual(runs("**Label**").map(\.1), [bold])
        XCTAssertEqual(runs("__Label__ and _this_ or *that*").map(\.0), ["Label", " and ", "this", " or ", "that"])
        XCTAssertEqual(runs("__Label__ and _this_ or *that*").map(\.1), [bold, FormattedText.Style(), italic, FormattedText.Style(), italic])
        XCTAssertEqual(runs("## Household\nmembers").map(\.1.heading), [2, nil])
        XCTAssertEqual(FormattedText(parsing: "## Household\nmembers").plainText, "Household\nmembers")
        let link = runs("See [the manual](https://docs.getodk.org/) first")
        XCTAssertEqual(link.map(\.0), ["See ", "the manual", " first"])
        XCTAssertEqual(link[1].1.link, "https://docs.getodk.org/")
    }

    func testODKsHTMLSubset() {
        let introduction = FormattedText(parsing: #"# <span style="color:red">Introduction</span>"#)
        XCTAssertEqual(introduction.plainText, "Introduction")
        XCTAssertEqual(introduction.runs.first?.style.heading, 1)
        XCTAssertEqual(introduction.runs.first?.style.color, "red")
        XCTAssertEqual(FormattedText(parsing: "Line one<br>Line two<br/>three<BR />").plainText, "Line one\nLine two\nthree")
        let font = FormattedText(parsing: ##"<font color="#00FF00" face="Noto Sans">green</font> <b>b</b><i>i</i><u>u</u>"##)
        XCTAssertEqual(font.plainText, "green bi" + "u")
        XCTAssertEqual(font.runs.first?.style.color, "#00ff00")
        XCTAssertEqual(font.runs.first?.style.fontFamily, "Noto Sans")
        XCTAssertEqual(font.runs.map(\.style.isUnderlined).last, true)
        XCTAssertEqual(FormattedText(parsing: "<p>one</p><p>two</p>").plainText, "one\ntwo")
        XCTAssertEqual(FormattedText(parsing: "<div>kept</div> <script>text</script>").plainText, "kept text",
                       "unknown tags are dropped and their text kept, as Collect's HTML rendering does")
        XCTAssertEqual(FormattedText(parsing: "caf&eacute; &amp; &lt;b&gt; &#233;&#x41;").plainText, "caf&eacute; & <b> éA")
    }

    func testTextThatOnlyLooksLikeMarksStaysText() {
        for text in ["snake_case_name", "2 * 3 * 4", "a < b & c > d", "<3", "**not closed", "* list item", "#hashtag", "[x](y)"] {
            let formatted = FormattedText(parsing: text)
            XCTAssertEqual(formatted.plainText, text, text)
            XCTAssertTrue(formatted.isPlain, text)
        }
        XCTAssertEqual(FormattedText(parsing: ##"\*not italic\* \_nor this\_ \# nor \\ this"##).plainText, ##"*not italic* _nor this_ # nor \ this"##)
        XCTAssertEqual(FormattedText(parsing: "").runs, [])
    }

    func testOnlySafeLinksColoursAndFontsAreKept() {
        let script = FormattedText(parsing: "[bad](javascript:alert(1))")
        XCTAssertTrue(script.runs.allSatisfy { $0.style.link == nil }, "only http, https, mailto and tel are linked")
        let anchor = FormattedText(parsing: #"<a href="file:///etc/passwd">x</a>"#)
        XCTAssertNil(anchor.runs.first?.style.link)
        let injected = FormattedText(parsing: #"<span style="color:red&quot; weight=&quot;bold; font-family:x'y">t</span>"#)
        XCTAssertNil(injected.runs.first?.style.color)
        XCTAssertNil(injected.runs.first?.style.fontFamily)
    }

    func testShownLabelsAreTheWords() {
        let choice = Choice(name: "y", label: TranslatedText(["default": "**Yes**, *of course*"]), properties: [:], row: 1)
        XCTAssertEqual(choice.shownLabel(in: nil), "Yes, of course")
        let unlabelled = Choice(name: "n", label: TranslatedText(), properties: [:], row: 2)
        XCTAssertEqual(unlabelled.shownLabel(in: nil), "n")
    }

    /// A form file is not trusted for size: a huge or deeply nested label is
    /// read in bounded time and depth, its words shown as they are.
    func testHostileLabelsAreReadInBoundedTimeAndDepth() {
        let long = String(repeating: "*a ", count: 200_000)
        XCTAssertEqual(FormattedText(parsing: long).plainText, long, "past the longest formatted text: shown as it is")
        XCTAssertTrue(FormattedText(parsing: long).isPlain)
        // Each `[` opens a link whose text holds the next: 900 levels deep, read 16 deep.
        let nested = String(repeating: "[", count: 900) + "x](https://example.org)"
        let read = FormattedText(parsing: nested)
        XCTAssertTrue(read.plainText.hasSuffix("x"), read.plainText)
        XCTAssertTrue(read.runs.contains { $0.style.link == "https://example.org" })
        let unmatched = String(repeating: "*", count: FormattedText.longestFormatted)
        XCTAssertEqual(FormattedText(parsing: unmatched).plainText, unmatched)
    }
}
