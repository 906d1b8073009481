@testable import FormEngine
import Foundation
import XCTest

/// XForms as servers serve them, read back into the rows they were written
/// from. The corpus-wide check against pyxform's own XForms is
/// Tests/FormReference/test_xform_describe.py; these are the cases pyxform
/// does not write and the files no reader should trust.
final class XFormReaderTests: XCTestCase {
    private func definition(_ xml: String, file: String = "form.xml") throws -> FormDefinition {
        try FormDefinition(data: Data(xml.utf8), fileName: file)
    }

    private func refusal(_ xml: String) -> String {
        do {
            _ = try FormDefinition(data: Data(xml.utf8), fileName: "form.xml")
            return ""
        } catch {
            return error.problems.map(\.description).joined(separator: "\n")
        }
    }

    private static let head = """
        <h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml" \
        xmlns:jr="http://openrosa.org/javarosa" xmlns:odk="http://www.opendatakit.org/xforms">
        """

    /// Written by hand, as ODK's specification shows them: no itext, items
    /// in the control, a bind named by id, refs relative to their group.
    func testAHandWrittenXForm_readsIntoTheRowsItMeans() throws {
        let form = try definition("""
            \(Self.head)<h:head><h:title>Clinic visit</h:title><model>
            <instance><visit id="clinic" version="7"><name/><age>30</age><smoker/><more><note/></more>
            <meta><instanceName/></meta></visit></instance>
            <bind nodeset="/visit/name" type="string" required="true()"/>
            <bind id="age" nodeset="/visit/age" type="xsd:int" constraint=". &lt; 120" jr:constraintMsg="Too old"/>
            <bind nodeset="/visit/smoker" type="string" relevant="/visit/age &gt; 12"/>
            <bind nodeset="/visit/more/note" readonly="true()" type="string"/>
            <bind nodeset="/visit/meta/instanceName" type="string" calculate="concat(/visit/name, '-', /visit/age)"/>
            </model></h:head><h:body>
            <input ref="/visit/name"><label>Name</label><hint>As written</hint></input>
            <input bind="age"><label>Age of <output value="/visit/name"/></label></input>
            <select1 ref="/visit/smoker" appearance="minimal"><label>Smoker?</label>
            <item><label>Yes</label><value>y</value></item><item><label>No</label><value>n</value></item></select1>
            <group ref="/visit/more"><label>More</label><input ref="note"><label>Thanks</label></input></group>
            </h:body></h:html>
            """)
        XCTAssertEqual(form.settings.title, "Clinic visit")
        XCTAssertEqual(form.settings.id, "clinic")
        XCTAssertEqual(form.settings.version, "7")
        XCTAssertEqual(form.settings.rootName, "visit")
        XCTAssertEqual(form.settings.instanceName, "concat(${name}, '-', ${age})")
        let questions = form.allQuestions
        XCTAssertEqual(questions.map(\.name), ["name", "age", "smoker", "more", "note"])
        XCTAssertEqual(questions.map(\.type.name), ["text", "integer", "select_one", "group", "note"])
        let age = try XCTUnwrap(questions.first { $0.name == "age" })
        XCTAssertEqual(age.label.text(in: nil), "Age of ${name}")
        XCTAssertEqual(age.constraint, ". < 120")
        XCTAssertEqual(age.constraintMessage.text(in: nil), "Too old")
        XCTAssertEqual(age.defaultValue, "30")
        let smoker = try XCTUnwrap(questions.first { $0.name == "smoker" })
        XCTAssertEqual(smoker.relevant, "${age} > 12")
        XCTAssertEqual(smoker.appearance, "minimal")
        XCTAssertEqual(form.choiceLists[smoker.listName ?? ""]?.choices.map(\.name), ["y", "n"])
        XCTAssertEqual(questions.first { $0.name == "name" }?.hint.text(in: nil), "As written")
        XCTAssertEqual(questions.first { $0.name == "note" }?.path, ["more", "note"])
    }

    func testItextTranslations_giveEachLanguagesTextsAndMedia_andPyxformsDashIsNoText() throws {
        let form = try definition("""
            \(Self.head)<h:head><h:title>T</h:title><model><itext>
            <translation lang="English (en)" default="true()">
            <text id="/data/q:label"><value>Goats</value><value form="image">jr://images/goat.png</value></text>
            <text id="/data/q:hint"><value form="guidance">Count kids too</value></text>
            <text id="yn-0"><value>Yes</value></text></translation>
            <translation lang="Français (fr)">
            <text id="/data/q:label"><value>-</value><value form="image">jr://images/chevre.png</value></text>
            <text id="/data/q:hint"><value form="guidance">-</value></text>
            <text id="yn-0"><value>Oui</value></text></translation></itext>
            <instance><data id="t"><q/><s/></data></instance>
            <instance id="yn"><root><item><itextId>yn-0</itextId><name>yes</name></item></root></instance>
            <bind nodeset="/data/q" type="int"/><bind nodeset="/data/s" type="string"/>
            </model></h:head><h:body>
            <input ref="/data/q"><label ref="jr:itext('/data/q:label')"/><hint ref="jr:itext('/data/q:hint')"/></input>
            <select1 ref="/data/s"><label>S</label><itemset nodeset="instance('yn')/root/item">
            <value ref="name"/><label ref="jr:itext(itextId)"/></itemset></select1>
            </h:body></h:html>
            """)
        XCTAssertEqual(form.settings.defaultLanguage, "English (en)")
        let question = try XCTUnwrap(form.allQuestions.first { $0.name == "q" })
        XCTAssertEqual(question.label.byLanguage, ["English (en)": "Goats"])
        XCTAssertEqual(question.media[.image]?.byLanguage, ["English (en)": "goat.png", "Français (fr)": "chevre.png"])
        XCTAssertEqual(question.guidanceHint.byLanguage, ["English (en)": "Count kids too"])
        XCTAssertEqual(form.choiceLists["yn"]?.choices.first?.label.byLanguage, ["English (en)": "Yes", "Français (fr)": "Oui"])
    }

    func testPathsBecomeReferences_asPyxformWroteThem_andOtherPathsStayAsWritten() {
        let names = ["/data/a": "a", "/data/r/b": "b", "/data/r/c": "c", "/data/r": "r"]
        func restore(_ text: String, at context: [String] = ["data", "r", "c"]) -> String {
            XFormReferences.restore(text, at: context, names: names)
        }
        XCTAssertEqual(restore(" /data/a  + 1"), "${a} + 1")
        XCTAssertEqual(restore("( /data/a )"), "(${a})")
        XCTAssertEqual(restore(" ../b  != ''"), "${b} != ''")
        XCTAssertEqual(restore("current()/../b = 'x'"), "${b} = 'x'")
        XCTAssertEqual(restore("/data/a>1"), "${a}>1", "a path written without pyxform's spaces keeps its neighbours")
        XCTAssertEqual(restore("count( /data/r )"), "count(${r})")
        XCTAssertEqual(restore(". > 3"), ". > 3", "the node itself stays `.`")
        XCTAssertEqual(restore("/data/r[position() = 2]/b"), "/data/r[position() = 2]/b", "a predicate is the engine's to read")
        XCTAssertEqual(restore("instance('x')/root/item[name = /data/a]/label"), "instance('x')/root/item[name = ${a}]/label")
        XCTAssertEqual(restore("/data/elsewhere + ../../../.."), "/data/elsewhere + ../../../..", "no such node")
        XCTAssertEqual(restore("'/data/a'"), "'/data/a'", "text in quotes is text")
        XCTAssertEqual(restore("1 +* 2"), "1 +* 2", "what does not parse is left to the form's checks")
    }

    /// JavaRosa's tests name the last saved response's instance `last-saved`,
    /// pyxform `__last-saved`: its `src` says what it is, whatever its id.
    func testTheLastSavedInstance_isKnownByItsSource_whateverItsID() throws {
        for id in ["__last-saved", "last-saved"] {
            let form = try definition("""
                \(Self.head)<h:head><h:title>T</h:title><model>
                <instance><data id="ls"><item/></data></instance>
                <instance id="\(id)" src="jr://instance/last-saved"/>
                <bind nodeset="/data/item" type="string"/>
                <setvalue event="odk-instance-first-load" ref="/data/item" value="instance('\(id)')/data/item"/>
                </model></h:head><h:body><input ref="/data/item"><label>Item</label></input></h:body></h:html>
                """)
            XCTAssertEqual(form.allQuestions.first?.defaultValue, "${last-saved#item}", id)
        }
    }

    /// A `setvalue` without `value` sets the text it holds, as in ODK's
    /// specification's own example.
    @MainActor
    func testASetvaluesText_isTheValueItSets() throws {
        let form = try FormViewModel(definition: definition("""
            \(Self.head)<h:head><h:title>T</h:title><model>
            <instance><data id="sv"><age/><note/><said/></data></instance>
            <bind nodeset="/data/age" type="int"/><bind nodeset="/data/note" type="string"/>
            <bind nodeset="/data/said" type="string"/>
            <setvalue event="odk-instance-first-load" ref="/data/said">It's "new"</setvalue>
            </model></h:head><h:body>
            <input ref="/data/age"><label>Age</label>
            <setvalue event="xforms-value-changed" ref="/data/note">Age's "changed"!</setvalue></input>
            </h:body></h:html>
            """))
        let age = try XCTUnwrap(form.state(named: "age")), note = try XCTUnwrap(form.state(named: "note"))
        XCTAssertEqual(form.state(named: "said")?.value.value, "It's \"new\"", "both quotes, kept as written")
        XCTAssertEqual(note.value.value, "")
        age.value.value = "40"
        XCTAssertEqual(note.value.value, "Age's \"changed\"!", "an expression has no escapes: concat() joins both quotes")
    }

    /// A secondary instance of the form's own that is no list of items is
    /// read by its expressions as a data file beside the form would be.
    @MainActor
    func testAnInstanceOfAnyShape_isReadByTheExpressionsThatNameIt() throws {
        let form = try FormViewModel(definition: definition("""
            \(Self.head)<h:head><h:title>T</h:title><model>
            <instance><data id="towns"><region/><used/><count/></data></instance>
            <instance id="towns"><towndata region="east"><data_set>us_east</data_set>
            <town><name>A</name></town><town><name>B</name></town></towndata></instance>
            <bind nodeset="/data/region" type="string"/>
            <bind nodeset="/data/used" type="string" calculate="concat(instance('towns')/towndata/data_set, '@', instance('towns')/towndata/@region)"/>
            <bind nodeset="/data/count" type="int" calculate="count(instance('towns')/towndata/town)"/>
            </model></h:head><h:body><input ref="/data/region"><label>Region</label></input></h:body></h:html>
            """))
        XCTAssertEqual(form.state(named: "used")?.value.value, "us_east@east")
        XCTAssertEqual(form.state(named: "count")?.value.value, "2")
    }

    /// An instance's data file is the one its `src` names, which need not
    /// be called after the instance's id, as pyxform would call it.
    @MainActor
    func testADataFile_isTheOneItsSourceNames_notOneNamedAfterItsID() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xform-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<data><total>41</total></data>".utf8).write(to: folder.appendingPathComponent("saved-2024.xml"))
        let form = try definition("""
            \(Self.head)<h:head><h:title>T</h:title><model>
            <instance><data id="f"><more/><total/></data></instance>
            <instance id="previous" src="jr://file/saved-2024.xml"/>
            <bind nodeset="/data/more" type="int"/>
            <bind nodeset="/data/total" type="int" calculate="instance('previous')/data/total + /data/more"/>
            </model></h:head><h:body><input ref="/data/more"><label>More</label></input></h:body></h:html>
            """)
        let model = try FormViewModel(definition: form, media: FormMedia(folders: [folder]))
        model.state(named: "more")?.value.value = "1"
        XCTAssertEqual(model.state(named: "total")?.value.value, "42")
        XCTAssertThrowsError(try FormViewModel(definition: form, media: .none)) { error in
            XCTAssertTrue("\(error)".contains("'saved-2024.xml'"), "the missing file is named as the form names it: \(error)")
        }
    }

    func testAControlXLSFormHasNoTypeFor_isRefusedByName() {
        let message = refusal("""
            \(Self.head)<h:head><h:title>T</h:title><model><instance><data id="t"><sig/></data></instance>
            <bind nodeset="/data/sig" type="string"/></model></h:head>
            <h:body><odk:signature ref="/data/sig"><label>Sign</label></odk:signature></h:body></h:html>
            """)
        XCTAssertTrue(message.contains("sig: a <signature> control, which XLSForm has no type for"), message)
    }

    func testFilesThatAreNoXForm_areRefusedWithAReason() {
        XCTAssertTrue(refusal("<h:html><h:head>").contains("not well-formed XML"))
        XCTAssertTrue(refusal("<worksheet><sheetData/></worksheet>").contains("not an XForm"))
        XCTAssertTrue(refusal("\(Self.head)<h:head><model/></h:head><h:body/></h:html>").contains("no primary instance"))
        let deep = String(repeating: "<g>", count: FormLimits.xmlDepth + 5) + String(repeating: "</g>", count: FormLimits.xmlDepth + 5)
        XCTAssertTrue(refusal(deep).contains("nests elements more than"), refusal(deep))
        let external = refusal("""
            \(Self.head)<h:head><h:title>T</h:title><model><instance><data id="t"><town/></data></instance>
            <bind nodeset="/data/town" type="string"/></model></h:head>
            <h:body><input ref="/data/town" query="instance('town')/root/item"><label>Town</label></input></h:body></h:html>
            """)
        XCTAssertTrue(external.contains("select_one_external reads its choices from itemsets.csv, which is not in the form's media"), external)
    }

    func testAnXFormsChoicesFromARepeat_andItsTriggers_comeBackAsTheirColumns() throws {
        let form = try definition("""
            \(Self.head)<h:head><h:title>T</h:title><model>
            <instance><data id="t"><friend jr:template=""><fname/></friend><best/><n/><when/></data></instance>
            <bind nodeset="/data/friend/fname" type="string"/><bind nodeset="/data/best" type="string"/>
            <bind nodeset="/data/n" type="int"/><bind nodeset="/data/when" type="dateTime"/>
            </model></h:head><h:body>
            <group ref="/data/friend"><label>Friend</label><repeat nodeset="/data/friend" jr:count=" /data/n ">
            <input ref="/data/friend/fname"><label>Name</label></input></repeat></group>
            <select1 ref="/data/best"><label>Best</label><itemset nodeset="/data/friend[fname != '']">
            <value ref="fname"/><label ref="fname"/></itemset></select1>
            <input ref="/data/n"><label>N</label>
            <setvalue event="xforms-value-changed" ref="/data/when" value="now()"/></input>
            </h:body></h:html>
            """)
        let questions = form.allQuestions
        XCTAssertEqual(questions.first { $0.name == "friend" }?.repeatCount, "${n}")
        let best = try XCTUnwrap(questions.first { $0.name == "best" })
        XCTAssertEqual(best.listName, "${fname}")
        XCTAssertEqual(best.choiceFilter, "fname != ''")
        let when = try XCTUnwrap(questions.first { $0.name == "when" })
        XCTAssertEqual(when.trigger, "${n}")
        XCTAssertEqual(when.calculation, "now()")
    }

    /// Written as Enketo's and JavaRosa's tests write them: refs relative to
    /// the root, no labels, lists at other paths, actions in the body.
    func testXFormsOtherToolsWrite_readAsJavaRosaReadsThem() throws {
        let form = try definition("""
            \(Self.head)<h:head><h:title>T</h:title><model>
            <instance id="main"><survey><a/><b/><g><a/><meta><note/></meta></g><where/><who/><c/><d/></survey></instance>
            <instance id="places"><places><place><code>n</code><name_id>p-n</name_id></place>
            <place><code>s</code><name_id>p-s</name_id></place></places></instance>
            <itext><translation lang="en"><text id="p-n"><value>North</value></text><text id="p-s"><value>South</value></text>
            </translation></itext>
            <bind nodeset="/survey/b" type="string" relevant="/survey/g/a = 'x' and /survey/a != ''"/>
            <bind nodeset="/survey/who" type="string" jr:preload="property" jr:preloadParams="Device_ID"/>
            <bind nodeset="/survey/c" type="string"/><bind nodeset="/survey/d" type="string"/>
            </model></h:head><h:body>
            <input ref="a"/>
            <input ref="b"><label>B</label></input>
            <group ref="g"><input ref="current()/a"><label>Inner</label></input>
            <input ref="meta/note"><label>Note</label></input></group>
            <odk:setgeopoint event="odk-instance-first-load" ref="/survey/where"/>
            <select1 ref="c"><label>C</label><itemset nodeset="instance('places')/places/place">
            <value ref="code"/><label ref="jr:itext(name_id)"/></itemset></select1>
            <select1 ref="d"><label>D</label><item><label>Yes</label><value>y</value></item>
            <item><label>Pick one</label><value></value></item></select1>
            </h:body></h:html>
            """)
        let questions = form.allQuestions
        XCTAssertEqual(questions.map(\.name), ["a", "b", "g", "a", "meta", "note", "where", "who", "c", "d"])
        XCTAssertEqual(questions.map(\.type.name),
                       ["text", "text", "group", "text", "group", "text", "start-geopoint", "deviceid", "select_one", "select_one"])
        XCTAssertTrue(questions[0].label.isEmpty, "a control without a label, as Collect shows it")
        XCTAssertEqual(questions[1].relevant, "/survey/g/a = 'x' and /survey/a != ''",
                       "a path to one of two nodes named alike stays a path")
        let places = try XCTUnwrap(form.choiceLists[questions[8].listName ?? ""])
        XCTAssertEqual(places.choices.map(\.name), ["n", "s"])
        XCTAssertEqual(places.choices.map { $0.label.text(in: "en") }, ["North", "South"])
        XCTAssertEqual(form.choiceLists[questions[9].listName ?? ""]?.choices.map(\.name), ["y"], "a blank placeholder item is no choice")
    }

    /// Collect reads a path as the node it leads to: `x` in one group and
    /// `x` in another are two questions, not one in a cycle with itself.
    @MainActor
    func testRowsOfOneNameInTwoGroups_areToldApartByThePathsThatReadThem() throws {
        let form = try FormViewModel(definition: definition("""
            \(Self.head)<h:head><h:title>T</h:title><model>
            <instance><data id="dup"><a><x/></a><b><x/><y/></b><r jr:template=""><n/><g><n/></g></r>
            <meta><instanceID/></meta></data></instance>
            <bind nodeset="/data/a/x" type="string"/>
            <bind nodeset="/data/b/x" type="string" calculate="../../a/x"/>
            <bind nodeset="/data/b/y" type="string" calculate="concat(/data/b/x, '!')" relevant="/data/a/x != ''"/>
            <bind nodeset="/data/r/n" type="int"/>
            <bind nodeset="/data/r/g" relevant="/data/r/n &gt; 5"/>
            <bind nodeset="/data/r/g/n" type="int" calculate="/data/r/n * 20"/>
            <bind nodeset="/data/meta/instanceID" type="string" readonly="true()" calculate="concat('uuid:', uuid())"/>
            </model></h:head><h:body>
            <group ref="/data/a"><input ref="/data/a/x"><label>X</label></input></group>
            <group ref="/data/r"><repeat nodeset="/data/r"><input ref="/data/r/n"><label>N</label></input></repeat></group>
            </h:body></h:html>
            """))
        func state(_ path: [String], in states: [QuestionState]) throws -> QuestionState {
            try XCTUnwrap(states.first { $0.question.path == path }, path.joined(separator: "/"))
        }
        let states = form.states
        let ax = try state(["a", "x"], in: states), bx = try state(["b", "x"], in: states), by = try state(["b", "y"], in: states)
        XCTAssertFalse(by.isRelevant.value)
        ax.value.value = "hello"
        XCTAssertEqual(bx.value.value, "hello", "../../a/x from b/x reads a's x")
        XCTAssertEqual(by.value.value, "hello!")
        XCTAssertTrue(by.isRelevant.value)

        let repeatState = try XCTUnwrap(try state(["r"], in: states).repeatState)
        let instance = try XCTUnwrap(repeatState.add())
        let n = try state(["r", "n"], in: instance.states), g = try state(["r", "g"], in: instance.states)
        let inner = try state(["r", "g", "n"], in: instance.states)
        n.value.value = "6"
        XCTAssertTrue(g.isRelevant.value, "the group reads the instance's outer n")
        XCTAssertEqual(inner.value.value, "120")
        n.value.value = "2"
        XCTAssertFalse(g.isRelevant.value)
    }

    func testAControlForANodeTheInstanceLacks_andAFormOfNoQuestions_areRefused() {
        let stray = refusal("""
            \(Self.head)<h:head><h:title>T</h:title><model><instance><data id="t"><a/></data></instance></model></h:head>
            <h:body><input ref="/data/a"><label>A</label></input><input ref="/data/b"><label>B</label></input></h:body></h:html>
            """)
        XCTAssertTrue(stray.contains("its body has a control for /data/b, which its primary instance does not have"), stray)
        let empty = refusal("""
            \(Self.head)<h:head><h:title>T</h:title><model><instance><data id="t"><meta><instanceID/></meta></data></instance>
            </model></h:head><h:body/></h:html>
            """)
        XCTAssertTrue(empty.contains("it has no questions"), empty)
    }

    func testTheSameItemsWrittenInTwoControls_areOneList() throws {
        let form = try definition("""
            \(Self.head)<h:head><h:title>T</h:title><model><instance><data id="t"><g><tea/><coffee/></g></data></instance>
            </model></h:head><h:body><group ref="/data/g" appearance="field-list">
            <select1 ref="/data/g/tea"><label>Tea</label><item><label>Yes</label><value>yes</value></item></select1>
            <select1 ref="/data/g/coffee"><label>Coffee</label><item><label>Yes</label><value>yes</value></item></select1>
            </group></h:body></h:html>
            """)
        let lists = Set(form.allQuestions.compactMap(\.listName))
        XCTAssertEqual(lists.count, 1, "\(lists)")
    }

    func testSelectOneExternal_readsItsChoicesFromTheItemsetsBesideTheForm() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xform-\(UUID().uuidString)")
        let media = folder.appendingPathComponent("towns-media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#""list_name","name","label","region"\#r\#n"town","arden","Arden","north"\#r\#n"town","calder","Calder","south"\#r\#n"#.utf8)
            .write(to: media.appendingPathComponent("itemsets.csv"))
        let form = folder.appendingPathComponent("towns.xml")
        try Data("""
            \(Self.head)<h:head><h:title>T</h:title><model><instance><data id="t"><region/><town/></data></instance>
            <bind nodeset="/data/region" type="string"/><bind nodeset="/data/town" type="string"/></model></h:head><h:body>
            <input ref="/data/region"><label>Region</label></input>
            <input ref="/data/town" query="instance('town')/root/item[region= /data/region ]"><label>Town</label></input>
            </h:body></h:html>
            """.utf8).write(to: form)
        let definition = try FormDefinition(contentsOf: form)
        let town = try XCTUnwrap(definition.allQuestions.first { $0.name == "town" })
        XCTAssertEqual(town.type, .selectOneExternal)
        XCTAssertEqual(town.choiceFilter, "region=${region}")
        XCTAssertEqual(definition.externalChoiceLists["town"]?.choices.map(\.name), ["arden", "calder"])
    }
}
