import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

final class LinkControlTests: GtkTestCase {
    private static let survey = """
        | | type | name | label | appearance | default |
        | | text | site | Project site | url | https://example.org/project |
        """

    func testTheAddressIsShown_andOnlyAWebAddressOpens() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("site", survey: Self.survey)
            defer { rendered.close() }
            XCTAssertTrue(rendered.all(Entry.self).isEmpty, "the address is shown, not typed")
            let open = try rendered.widget(Button.self)
            XCTAssertTrue(rendered.all(Label.self).contains { $0.text == "https://example.org/project" })
            XCTAssertTrue(open.isSensitive)

            rendered.state.value.value = "file:///etc/passwd"
            XCTAssertFalse(open.isSensitive, "only http and https open")
            rendered.state.value.value = ""
            XCTAssertTrue(rendered.all(Label.self).contains { $0.text == "No link" })
            XCTAssertFalse(open.isSensitive)
        }
    }

    func testWebAddresses() {
        XCTAssertNotNil(LinkControl.webAddress(" http://a.example/x?y=1 "))
        XCTAssertNil(LinkControl.webAddress("javascript:alert(1)"))
        XCTAssertNil(LinkControl.webAddress("https://"))
        XCTAssertNil(LinkControl.webAddress("example.org"))
    }
}
