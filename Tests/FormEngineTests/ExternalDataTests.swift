import FormEngine
import Foundation
import XCTest

/// Data files beside a form (`select_one_from_file`, `csv-external`,
/// `xml-external`, `pulldata()`), `instance()` paths over them and over the
/// form's own choice lists, `jr:itext()` and `digest()`, as ODK Collect runs them.
final class ExternalDataTests: XCTestCase {
    /// A folder holding `files`, as a form's media folder.
    private func media(_ files: [String: String]) throws -> FormMedia {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("external-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        return FormMedia(folders: [folder])
    }

    private func problems(_ markdown: String, media: FormMedia) throws -> [String] {
        FormPlan(try FormFixtures.definition(markdown), media: media).problems.map(\.description)
    }

    private static let towns = """
        name,label,region,population
        lyon,Lyon,ara,522000
        grenoble,Grenoble,ara,158000
        "lille","Lille, Nord",hdf,236000
        arras,Arras,hdf
        """

    @MainActor func testSelectFromACSVFileOffersItsRowsFilteredByTheirColumns() async throws {
        let form = try FormViewModel(definition: FormFixtures.definition("""
            | survey |
            | | type | name | label | choice_filter | parameters |
            | | select_one regions | region | Region | | |
            | | select_one_from_file towns.csv | town | Town | region = ${region} | |
            | | select_multiple_from_file towns.csv | big | Big towns | population > 200000 | value=label label=name |
            | choices |
            | | list_name | name | label |
            | | regions | ara | Auvergne-Rhône-Alpes |
            | | regions | hdf | Hauts-de-France |
            """), media: media(["towns.csv": Self.towns]))
        let town = try XCTUnwrap(form.state(named: "town"))
        XCTAssertEqual(town.choices?.value.map(\.name), [])
        form.state(named: "region")?.value.value = "hdf"
        XCTAssertEqual(town.choices?.value.map(\.name), ["lille", "arras"])
        XCTAssertEqual(town.choices?.value.first?.label.text(in: nil), "Lille, Nord", "a quoted value keeps its comma")
        town.value.value = "arras"
        XCTAssertEqual(town.value.value, "arras")
        let big = try XCTUnwrap(form.state(named: "big")?.choices?.value)
        XCTAssertEqual(big.map(\.name), ["Lyon", "Lille, Nord"], "value= and label= name the columns")
        XCTAssertEqual(big.map { $0.label.text(in: nil) }, ["lyon", "lille"])
    }

    @MainActor func testSelectOneExternal_offersTheExternalChoicesSheetsList_filteredByItsColumns() async throws {
        let definition = try FormFixtures.definition("""
            | survey |
            | | type | name | label | choice_filter |
            | | select_one region | region | Region | |
            | | select_one_external town | town | Town | region=${region} |
            | choices |
            | | list_name | name | label |
            | | region | north | North |
            | | region | south | South |
            | | town | decoy | Not the external list |
            | external_choices |
            | | list_name | name | label | region |
            | | town | arden | Arden | north |
            | | town | brill | Brill | north |
            | | town | calder | Calder | south |
            """)
        let form = try FormViewModel(definition: definition)
        let town = try XCTUnwrap(form.state(named: "town"))
        XCTAssertEqual(town.choices?.value.map(\.name), [])
        form.state(named: "region")?.value.value = "north"
        XCTAssertEqual(town.choices?.value.map(\.name), ["arden", "brill"], "the external sheet's list, not the choices sheet's of that name")
        town.value.value = "brill"
        form.state(named: "region")?.value.value = "south"
        XCTAssertEqual(town.choices?.value.map(\.name), ["calder"])
        XCTAssertEqual(town.value.value, "", "a town of another region is no answer")

        XCTAssertEqual(FormFixtures.problems("""
            | survey |
            | | type | name | label | choice_filter |
            | | select_one_external town | town | Town | |
            | | select_one_external village | village | Village | true() |
            | external_choices |
            | | list_name | name | label |
            | | town | arden | Arden |
            """).map { "\($0)" }, [
            "survey row 2: A select_one_external needs a choice_filter; a list offered whole belongs on the choices sheet.",
            "survey row 3: The choice list 'village' is not in the external_choices sheet.",
        ])
    }

    private static let fruits = """
        name_key,name,kind
        a,Apple,pome
        b,Blueberry,berry
        c,Cranberry,berry
        b,Banana,other
        """

    @MainActor func testSearch_offersACSVFilesRows_searchedAndFiltered_asCollectsSearchAppearance() async throws {
        let definition = try FormFixtures.definition("""
            | survey |
            | | type | name | label | appearance |
            | | text | typed | Typed | |
            | | select_one fruits | all | All | search('fruits') |
            | | select_one fruits | some | Some | search('fruits', 'contains', 'name, kind', ${typed}) |
            | | select_multiple fruits | berries | Berries | search('fruits.csv', 'startswith', 'name', ${typed}, 'kind', 'berry') |
            | | select_one fruits | exact | Exact | quick search('fruits', 'matches', 'name_key', 'B') |
            | choices |
            | | list_name | name | label |
            | | fruits | name_key | name, kind |
            """)
        XCTAssertTrue(definition.warnings.isEmpty, "search() is honoured: \(definition.warnings)")
        XCTAssertEqual(definition.allQuestions.last?.appearances, ["quick"], "the call is not a word of the appearance")
        let form = try FormViewModel(definition: definition, media: media(["fruits.csv": Self.fruits]))
        func offered(_ name: String) -> [String]? { form.state(named: name)?.choices?.value.map(\.name) }

        XCTAssertEqual(offered("all"), ["a", "b", "c"], "one choice per value, the first row's")
        XCTAssertEqual(form.state(named: "all")?.choices?.value.first?.label.text(in: nil), "Apple (kind: pome)",
                       "the first column named by the label, then the others by name")
        XCTAssertEqual(offered("some"), ["a", "b", "c"], "nothing typed: every row contains it")
        XCTAssertEqual(offered("berries"), ["b", "c"], "the filter column must equal its value")
        XCTAssertEqual(offered("exact"), ["b"], "matches: the whole value, letter case aside")

        form.state(named: "some")?.value.value = "a"
        form.state(named: "typed")?.value.value = "BERRY"
        XCTAssertEqual(offered("some"), ["b", "c"], "either column contains it, letter case aside")
        XCTAssertEqual(form.state(named: "some")?.value.value, "", "an answer the search no longer offers is no answer")
        form.state(named: "typed")?.value.value = "cr"
        XCTAssertEqual(offered("berries"), ["c"], "starts with it, among the berries")
    }

    func testSearch_thatCannotRun_isRefusedWithItsRow_andOnAnotherType_isAWarning() throws {
        let files = try media(["fruits.csv": Self.fruits])
        func refusal(_ appearance: String) throws -> [String] {
            try problems("""
                | survey |
                | | type | name | label | appearance |
                | | select_one fruits | f | F | \(appearance) |
                | choices |
                | | list_name | name | label |
                | | fruits | name_key | name |
                """, media: files)
        }
        XCTAssertEqual(try refusal("search('fruits')"), [])
        XCTAssertEqual(try refusal("search('fruits', 'contains')").first,
                       "survey row 2: The appearance's search('fruits', 'contains') of 'f' cannot be read: it takes 1, 4 or 6 values (the file; then how to search, the columns and the value; then a column and the value it must equal), not 2.")
        XCTAssertEqual(try refusal("search(fruits)").first,
                       "survey row 2: The appearance's search(fruits) of 'f' cannot be read: its value 1, fruits, must be quoted text.")
        XCTAssertEqual(try refusal("search('fruits', 'contains', 'colour', 'red')").first,
                       "survey row 2: 'f' searches the column 'colour' of 'fruits.csv', which has no such column.")
        XCTAssertTrue(try refusal("search('vegetables')").first?.contains("The data file 'vegetables.csv' is missing") == true)

        let text = try FormFixtures.definition("""
            | survey |
            | | type | name | label | appearance |
            | | text | t | T | search('fruits') |
            """)
        XCTAssertEqual(text.allQuestions.first?.ignoredAppearances, ["search()"])
    }

    @MainActor func testPulldataReadsTheRowWhoseKeyMatchesAndFollowsTheKey() async throws {
        let form = try FormViewModel(definition: FormFixtures.definition("""
            | survey |
            | | type | name | label | calculation |
            | | text | code | Code | |
            | | calculate | people | | pulldata('towns', 'population', 'name', ${code}) |
            | | calculate | none | | pulldata('towns', 'population', 'name', 'paris') |
            """), media: media(["towns.csv": Self.towns]))
        let people = try XCTUnwrap(form.state(named: "people"))
        XCTAssertEqual(people.value.value, "")
        form.state(named: "code")?.value.value = "grenoble"
        XCTAssertEqual(people.value.value, "158000")
        form.state(named: "code")?.value.value = "arras"
        XCTAssertEqual(people.value.value, "", "a short row leaves its last fields blank")
        XCTAssertEqual(form.state(named: "none")?.value.value, "", "no row has the key")
    }

    @MainActor func testInstancePathsReadTheFormsOwnListsWithPredicatesAndItext() async throws {
        let form = try FormViewModel(definition: FormFixtures.definition("""
            | survey |
            | | type | name | label::English (en) | label::Deutsch (de) | calculation |
            | | select_one fruit | fruit | Fruit | Obst | |
            | | calculate | colour | | | instance('fruit')/root/item[name = ${fruit}]/colour |
            | | calculate | shown | | | jr:itext(instance('fruit')/root/item[name = ${fruit}]/itextId) |
            | | calculate | red | | | count(instance('fruit')/root/item[colour = 'red']) |
            | | calculate | second | | | instance('fruit')/root/item[2]/name |
            | | calculate | question | | | jr:itext('/data/fruit:label') |
            | choices |
            | | list_name | name | label::English (en) | label::Deutsch (de) | colour |
            | | fruit | apple | Apple | Apfel | red |
            | | fruit | pear | Pear | Birne | green |
            | | fruit | cherry | Cherry | Kirsche | red |
            """), language: "English (en)")
        form.state(named: "fruit")?.value.value = "pear"
        XCTAssertEqual(form.state(named: "colour")?.value.value, "green")
        XCTAssertEqual(form.state(named: "shown")?.value.value, "Pear")
        XCTAssertEqual(form.state(named: "red")?.value.value, "2")
        XCTAssertEqual(form.state(named: "second")?.value.value, "pear")
        XCTAssertEqual(form.state(named: "question")?.value.value, "Fruit")
        form.language.value = "Deutsch (de)"
        XCTAssertEqual(form.state(named: "shown")?.value.value, "Birne", "jr:itext follows the language")
        XCTAssertEqual(form.state(named: "question")?.value.value, "Obst")
    }

    @MainActor func testXMLAndGeoJSONFilesAreReadAsODKReadsThem() async throws {
        let form = try FormViewModel(definition: FormFixtures.definition("""
            | survey |
            | | type | name | label | calculation |
            | | xml-external | places | | |
            | | text | code | Code | |
            | | calculate | place | | instance('places')/root/item[@code = ${code}]/name |
            | | calculate | rivers | | count(instance('places')//river) |
            | | select_one_from_file wells.geojson | well | Well | |
            | | calculate | where | | instance('wells')/root/item[id = ${well}]/geometry |
            """), media: media([
                "places.xml": """
                    <?xml version="1.0"?>
                    <root>
                      <item code="7"><name>Saint-&#201;tienne</name><river>Furan</river></item>
                      <item code="8"><name><![CDATA[A & B]]></name><river>Loire</river></item>
                    </root>
                    """,
                "wells.geojson": """
                    {"type": "FeatureCollection", "features": [
                      {"type": "Feature", "id": "w1", "geometry": {"type": "Point", "coordinates": [4.39, 45.43, 512]},
                       "properties": {"title": "North well", "depth": 12.5, "dry": false}},
                      {"type": "Feature", "geometry": {"type": "Point", "coordinates": [4.4, 45.4]},
                       "properties": {"id": 2, "title": "South well"}}
                    ]}
                    """,
            ]))
        form.state(named: "code")?.value.value = "7"
        XCTAssertEqual(form.state(named: "place")?.value.value, "Saint-Étienne")
        form.state(named: "code")?.value.value = "8"
        XCTAssertEqual(form.state(named: "place")?.value.value, "A & B")
        XCTAssertEqual(form.state(named: "rivers")?.value.value, "2")
        let well = try XCTUnwrap(form.state(named: "well"))
        XCTAssertEqual(well.choices?.value.map(\.name), ["w1", "2"])
        XCTAssertEqual(well.choices?.value.map { $0.label.text(in: nil) }, ["North well", "South well"])
        XCTAssertEqual(well.choices?.value.first?.properties["depth"], "12.5")
        XCTAssertEqual(well.choices?.value.first?.properties["dry"], "false")
        well.value.value = "w1"
        XCTAssertEqual(form.state(named: "where")?.value.value, "45.43 4.39 512 0", "GeoJSON's lon, lat as ODK's lat lon alt acc")
    }

    @MainActor func testDigestHashesAsODKNamesThem() async throws {
        let form = try FormViewModel(definition: FormFixtures.definition("""
            | survey |
            | | type | name | label | calculation |
            | | calculate | sha256 | | digest('abc', 'SHA-256', 'hex') |
            | | calculate | md5 | | digest('', 'MD5') |
            | | calculate | sha1 | | digest('abc', 'SHA-1', 'hex') |
            | | calculate | sha512 | | string-length(digest('abc', 'SHA-512', 'hex')) |
            """))
        XCTAssertEqual(form.state(named: "sha256")?.value.value, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(form.state(named: "md5")?.value.value, "1B2M2Y8AsgTpgAmY7PhCfg==", "base64 when no encoding is given")
        XCTAssertEqual(form.state(named: "sha1")?.value.value, "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(form.state(named: "sha512")?.value.value, "128")
    }

    func testAMissingOrBrokenFileRefusesTheFormNamingTheFileAndLine() throws {
        let form = """
            | survey |
            | | type | name | label |
            | | select_one_from_file towns.csv | town | Town |
            """
        let missing = try problems(form, media: media([:]))
        XCTAssertEqual(missing.count, 1)
        XCTAssertTrue(missing[0].contains("row 2") && missing[0].contains("'towns.csv' is missing"), missing[0])
        XCTAssertTrue(try problems(form, media: .none)[0].contains("'towns.csv' is needed"))

        let tooMany = try problems(form, media: media(["towns.csv": "name,label\nlyon,Lyon\nlille,Lille,extra\n"]))
        XCTAssertTrue(tooMany.first?.contains("line 3: 3 values, but the first line names 2 columns") ?? false, "\(tooMany)")
        let open = try problems(form, media: media(["towns.csv": "name,label\nlyon,\"Lyon\nlille,Lille\n"]))
        XCTAssertTrue(open.first?.contains("never closed") ?? false, "\(open)")
        let unnamed = try problems(form, media: media(["towns.csv": "name,,label\n"]))
        XCTAssertTrue(unnamed.first?.contains("a column has no name") ?? false, "\(unnamed)")
        let binary = try problems(form, media: media(["towns.csv": ""]))
        XCTAssertTrue(binary.first?.contains("it is empty") ?? false, "\(binary)")

        let xml = try problems("""
            | survey |
            | | type | name | label |
            | | xml-external | places | |
            """, media: media(["places.xml": "<root><item></root>"]))
        XCTAssertTrue(xml.first?.contains("'places.xml' cannot be read: it is not well-formed XML") ?? false, "\(xml)")
        let geo = try problems("""
            | survey |
            | | type | name | label |
            | | select_one_from_file wells.geojson | well | Well |
            """, media: media(["wells.geojson": #"{"type": "FeatureCollection", "features": [{"type": "Feature"}]}"#]))
        XCTAssertTrue(geo.first?.contains("feature 1 is not a Point") ?? false, "\(geo)")
    }

    func testInstanceOfNothingAndFunctionsNotRunAreRefusedNotBlank() throws {
        let unknown = try problems("""
            | survey |
            | | type | name | label | calculation |
            | | calculate | c | | instance('nowhere')/root/item[1]/name |
            """, media: .none)
        XCTAssertEqual(unknown.count, 1)
        XCTAssertTrue(unknown[0].contains("instance('nowhere') names no choice list and no data file"), unknown[0])
        for expression in [
            "property('deviceid')", "local-name(.)", "jr:unknown(1)", "digest('a', 'SHA-3')", "digest('a', 'MD5', 'base32')",
            // A data file is read downwards only: climbing it is refused, not read as nothing.
            "instance('towns')/root/item/../item", "instance('towns')/root/item[1]/following-sibling::item",
        ] {
            XCTAssertThrowsError(try FormExpression(expression), expression)
        }
    }

    func testOnlyPlainNamesAreReadFromTheMediaFolders() throws {
        let media = try media(["towns.csv": "name\n"])
        XCTAssertNoThrow(try media.data(named: "towns.csv"))
        for name in ["../towns.csv", "/etc/passwd", "..", ""] {
            XCTAssertThrowsError(try media.data(named: name), name) { XCTAssertEqual($0 as? FormMedia.Failure, .missing) }
        }
        let formURL = URL(fileURLWithPath: "/forms/household.xlsx")
        XCTAssertEqual(FormMedia(besideFormAt: formURL).folders.map(\.path), ["/forms/household-media", "/forms"])
    }

    func testANameInAnotherLetterCaseIsFoundAsOnPhoneStorage_unlessTwoFilesDifferOnlyByCase() throws {
        // Collect's own tests copy `itemSets.csv` for a form that reads itemsets.csv.
        let media = try media(["itemSets.csv": "list_name,name,label\n", "Towns.CSV": "name\n"])
        XCTAssertEqual(media.url(named: "itemsets.csv")?.lastPathComponent, "itemSets.csv")
        XCTAssertEqual(try media.data(named: "towns.csv"), Data("name\n".utf8))
        XCTAssertThrowsError(try media.data(named: "villages.csv")) { XCTAssertEqual($0 as? FormMedia.Failure, .missing) }

        let both = try self.media(["Map.png": "upper", "map.PNG": "lower", "map.png": "exact"])
        XCTAssertEqual(try both.data(named: "map.png"), Data("exact".utf8), "the name as written comes first")
        let twins = try self.media(["Map.png": "upper", "map.PNG": "lower"])
        XCTAssertNil(twins.url(named: "map.png"), "neither of two case variants is taken for the other")

        // The media folder's exact name beats a case variant in the one before it.
        let formFolder = try self.media(["Towns.csv": "form's folder"]).folders[0]
        let mediaFolder = try self.media(["towns.csv": "media folder"]).folders[0]
        XCTAssertEqual(try FormMedia(folders: [formFolder, mediaFolder]).data(named: "towns.csv"), Data("media folder".utf8))
    }

    /// A long list: an equality predicate is answered from the index, and
    /// gives the same items a scan gives.
    @MainActor func testALongListIsLookedUpByIndexWithTheSameAnswers() async throws {
        var csv = "name,label,district\n"
        for row in 0..<100_000 { csv += "v\(row),Village \(row),d\(row % 500)\n" }
        let form = try FormViewModel(definition: FormFixtures.definition("""
            | survey |
            | | type | name | label | calculation |
            | | text | district | District | |
            | | calculate | villages | | count(instance('villages')/root/item[district = ${district}]) |
            | | calculate | scanned | | count(instance('villages')/root/item[district = concat(${district}, '') and true()]) |
            | | calculate | first | | pulldata('villages', 'label', 'district', ${district}) |
            """), media: media(["villages.csv": csv]))
        form.state(named: "district")?.value.value = "d42"
        XCTAssertEqual(form.state(named: "villages")?.value.value, "200")
        XCTAssertEqual(form.state(named: "scanned")?.value.value, "200")
        XCTAssertEqual(form.state(named: "first")?.value.value, "Village 42")
    }
}
