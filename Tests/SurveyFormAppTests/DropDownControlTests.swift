import Foundation
import FormEngine
import GtkTestSupport
@testable import SurveyFormApp
import TwoWayBindingGtk
import XCTest

final class DropDownControlTests: GtkTestCase {
    private static let survey = """
        | | type | name | label | appearance | choice_filter |
        | | select_one city | city | City | minimal | |
        | | select_one district | district | District | minimal | city = ${city} |
        """
    private static let choices = """
        | | list_name | name | label | city |
        | | city | nairobi | Nairobi | |
        | | city | mombasa | Mombasa | |
        | | district | westlands | Westlands | nairobi |
        | | district | kisauni | Kisauni | mombasa |
        | | district | likoni | Likoni | mombasa |
        """

    func testAMinimalSelectOneIsADropDownBoundBothWays() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("city", survey: Self.survey, choices: Self.choices)
            defer { rendered.close() }
            let dropDown = try rendered.widget(DropDown.self)
            XCTAssertEqual(dropDown.accessibleLabel, "City")
            XCTAssertNil(dropDown.selectedIndex, "nothing chosen while unanswered")

            dropDown.selectedIndex = 1
            XCTAssertEqual(rendered.state.value.value, "mombasa")
            rendered.state.value.value = "nairobi"
            XCTAssertEqual(dropDown.selectedIndex, 0)
        }
    }

    func testTheListFollowsTheChoicesOfferedAndKeepsTheAnswer() throws {
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("district", survey: Self.survey, choices: Self.choices)
            defer { rendered.close() }
            let dropDown = try rendered.widget(DropDown.self)
            let city = try XCTUnwrap(rendered.viewModel.states.first { $0.question.name == "city" })
            city.value.value = "mombasa"
            dropDown.selectedIndex = 1
            XCTAssertEqual(rendered.state.value.value, "likoni")

            city.value.value = "nairobi"
            XCTAssertNil(dropDown.selectedIndex, "likoni is not offered in Nairobi")
            city.value.value = "mombasa"
            rendered.state.value.value = "kisauni"
            XCTAssertEqual(dropDown.selectedIndex, 0)
        }
    }

    func testAListFromADataFileOrAutocompleteIsSearchedByTyping() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("drop-down-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("name,label\nv1,Kibera\nv2,Mathare\nv3,Kawangware\n".utf8).write(to: folder.appendingPathComponent("villages.csv"))
        let survey = """
            | | type | name | label | appearance |
            | | select_one_from_file villages.csv | village | Village | |
            | | select_one city | city | City | autocomplete |
            """
        try MainActor.assumeIsolated {
            let rendered = try RenderedQuestion("village", survey: survey, choices: Self.choices, media: FormMedia(folders: [folder]))
            defer { rendered.close() }
            let dropDown = try rendered.widget(DropDown.self)
            XCTAssertTrue(dropDown.isSearchable, "a data file's list may be long")
            XCTAssertEqual(dropDown.accessibleLabel, "Village")
            dropDown.selectedIndex = 2
            XCTAssertEqual(rendered.state.value.value, "v3")
            rendered.state.value.value = "v2"
            XCTAssertEqual(dropDown.selectedIndex, 1)

            let city = try RenderedQuestion("city", survey: survey, choices: Self.choices, media: FormMedia(folders: [folder]))
            defer { city.close() }
            XCTAssertTrue(try city.widget(DropDown.self).isSearchable)
            let minimal = try RenderedQuestion("city", survey: Self.survey, choices: Self.choices)
            defer { minimal.close() }
            XCTAssertFalse(try minimal.widget(DropDown.self).isSearchable, "minimal alone is a plain drop-down")
        }
    }
}
