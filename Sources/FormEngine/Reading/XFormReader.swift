import Foundation

/// Reads an XForm, the XML that ODK Central, KoboToolbox and Ona serve, back
/// into the XLSForm workbook it was written from, so that one reader checks
/// and builds every form (`FormParser`), whichever file it came as.
///
/// pyxform's XForms are read exactly: its rows come back with their names,
/// types, labels in each language, media, hints, messages, `${}` references,
/// choice lists, groups, repeats and settings, as `--describe-form` shows.
/// What pyxform expands leaves its expansion: a loop's copies, the lists of
/// `select_one_from_file`. An XForm this reader cannot map to rows (a control
/// or a bind XLSForm has no column for) is refused with the node that has it.
enum XFormReader {
    /// `media`: where the form's files are, for the `itemsets.csv` a
    /// `select_one_external` reads (`.none` for a form read from memory).
    static func read(_ data: Data, fileName: String, media: FormMedia = .none) throws(FormFileError) -> Workbook {
        let document: XMLTree?
        do {
            document = try XMLTree.parse(data)
        } catch {
            throw .refused(fileName, reason: error.reason)
        }
        guard let document else { throw .refused(fileName, reason: "it is not well-formed XML") }
        guard document.name == "html", let head = document.child("head"), let model = head.child("model"),
              let body = document.child("body") else {
            throw .refused(fileName, reason: "it is not an XForm (an h:html with h:head, a model and h:body)")
        }
        var translation = XFormTranslation(head: head, model: model, body: body, media: media)
        do {
            return try translation.workbook()
        } catch {
            throw .refused(fileName, reason: error.reason)
        }
    }
}

/// One XForm's rows, read from its model and body.
private struct XFormTranslation {
    let head: XMLTree
    let model: XMLTree
    let body: XMLTree

    /// Texts by language, id and form (`""`, `image`, `guidance`, …), as
    /// written: a text's `<output>`s are read where it is used.
    private var itext: [(language: String, texts: [String: [String: XMLTree]])] = []
    private var defaultLanguage: String?
    private var binds: [String: XMLTree] = [:]
    /// Nodes by their bind's `id`, for a control written `bind="id"`.
    private var bindIDs: [String: String] = [:]
    /// Body elements by the node they are for: controls, groups, repeats.
    private var controls: [String: XMLTree] = [:]
    private var groups: [String: XMLTree] = [:]
    private var repeats: [String: XMLTree] = [:]
    /// `setvalue`s run as the response begins (dynamic defaults), by target.
    private var firstLoadValues: [String: SetValue] = [:]
    /// `setvalue`s run when a question changes: target → (question's path, value).
    private var valueChangedTriggers: [String: (source: String, value: String)] = [:]
    private var startGeopoints: Set<String> = []
    /// `odk:setgeopoint` on a question's change: target → that question's node.
    private var backgroundGeopoints: [String: String] = [:]
    /// The primary instance's root element's name (`data`).
    private var rootName = "data"
    /// `odk:recordaudio` targets and their quality.
    private var backgroundAudio: [String: String] = [:]
    /// Secondary instances by id.
    private var instances: [String: XMLTree] = [:]
    private var names: [String: String] = [:]
    /// Every node of the primary instance, by path.
    private var nodes: Set<String> = []

    private var survey: [[String: String]] = []
    private var choices: [[String: String]] = []
    private var settings: [String: String] = [:]
    /// The entities sheet's rows, from each `meta/entity`.
    private var entities: [[String: String]] = []
    private var listsWritten: Set<String> = []
    /// The id of an instance whose `src` is the last saved response, as read.
    private var namedLastSaved: String?
    /// The form's own instances read by expressions that are no list.
    private var embeddedInstances: [String: InstanceNode] = [:]
    /// Data files named otherwise than their instance: id → file.
    private var dataFileNames: [String: String] = [:]
    /// Lists of items written in controls, by their items.
    private var inlineLists: [String: String] = [:]
    private var otherLists: Set<String> = []

    /// The form's files, for `itemsets.csv`.
    let media: FormMedia
    /// The first select_one_external, which needs `itemsets.csv`.
    private var externalSelect: String?
    private var externalChoices: Sheet?

    init(head: XMLTree, model: XMLTree, body: XMLTree, media: FormMedia) {
        self.head = head
        self.model = model
        self.body = body
        self.media = media
    }

    mutating func workbook() throws(LimitExceeded) -> Workbook {
        let primary = try readModel()
        rootName = primary.name
        collectNames(primary, path: [primary.name])
        readBody(body)
        readSettings(primary)
        if let stray = controls.keys.sorted().first(where: { !nodes.contains($0) }) {
            throw LimitExceeded("its body has a control for \(stray), which its primary instance does not have")
        }
        try rows(under: primary, path: [primary.name])
        guard !survey.isEmpty else { throw LimitExceeded("it has no questions: its instance holds nothing to answer") }
        placeExternalInstances()
        writeListsReadByExpressions()
        if let externalSelect { externalChoices = try itemsets(for: externalSelect) }
        // JavaRosa takes a choice name twice in a list (a cascade's `king`
        // under two states); pyxform's check was for the author.
        settings["allow_choice_duplicates"] = "yes"
        var workbook = Workbook(sheets: sheets(), layout: .xform)
        workbook.embeddedInstances = embeddedInstances
        workbook.dataFileNames = dataFileNames
        return workbook
    }

    // MARK: - The model

    private mutating func readModel() throws(LimitExceeded) -> XMLTree {
        var primary: XMLTree?
        for element in model.children {
            switch element.name {
            case "itext":
                for translation in element.children("translation") {
                    let language = translation["lang"] ?? "default"
                    if translation["default"] != nil { defaultLanguage = language }
                    var texts: [String: [String: XMLTree]] = [:]
                    for text in translation.children("text") {
                        guard let id = text["id"] else { continue }
                        for value in text.children("value") { texts[id, default: [:]][value["form"] ?? ""] = value }
                    }
                    itext.append((language, texts))
                }
            case "instance":
                // The first instance is the primary one, whatever it is called.
                if primary == nil {
                    primary = element.children.first
                } else if let id = element["id"] {
                    instances[id] = element
                    if element["src"] == "jr://instance/last-saved", namedLastSaved.map({ id < $0 }) ?? true {
                        namedLastSaved = id
                    }
                }
            case "bind":
                if let nodeset = element["nodeset"] {
                    binds[nodeset] = element
                    if let id = element["id"] { bindIDs[id] = nodeset }
                }
            case "setvalue":
                if let ref = element["ref"], Self.setsDefault(element) {
                    firstLoadValues[ref] = SetValue(element)
                }
            case "setgeopoint":
                if let ref = element["ref"] { startGeopoints.insert(ref) }
            case "recordaudio":
                if let ref = element["ref"] { backgroundAudio[ref] = element["odk:quality"] ?? "" }
            default:
                continue
            }
        }
        guard let primary else { throw LimitExceeded("its model has no primary instance") }
        return primary
    }

    // MARK: - The body

    /// The node a body element is for: its `ref` (from `base`, the group's
    /// node, when relative), or its `bind`'s nodeset.
    private func node(of element: XMLTree, in base: String) -> String? {
        if var ref = element["ref"] ?? element["nodeset"] {
            ref = ref.trimmingCharacters(in: .whitespaces)
            if ref.hasPrefix("current()/") { ref.removeFirst("current()/".count) }
            if ref.hasPrefix("/") { return ref }
            // Relative to the group around it, or to the instance's root.
            return (base.isEmpty ? "/" + rootName : base) + "/" + ref
        }
        return element["bind"].flatMap { bindIDs[$0] }
    }

    /// The node an action (`setvalue`, `odk:setgeopoint`) sets, resolved as a control's.
    private func action(_ element: XMLTree, in base: String) -> String? {
        element["ref"] == nil && element["bind"] == nil ? nil : node(of: element, in: base)
    }

    /// What a `setvalue` sets: its `value` expression, else the text it
    /// holds, which XForms takes as it stands (`<setvalue …>Age changed!</setvalue>`).
    struct SetValue {
        var expression: String
        /// The text, when that is what it sets.
        var literal: String?

        init(_ action: XMLTree) {
            if let value = action["value"] {
                expression = value
            } else {
                literal = action.text
                expression = Self.quoted(action.text)
            }
        }

        /// `text` as an XPath 1.0 string literal, which has no escapes:
        /// quotes of both kinds are joined with `concat()`.
        static func quoted(_ text: String) -> String {
            if !text.contains("'") { return "'\(text)'" }
            if !text.contains("\"") { return "\"\(text)\"" }
            let pieces = text.split(separator: "'", omittingEmptySubsequences: false).map { "'\($0)'" }
            return "concat(" + pieces.joined(separator: ", \"'\", ") + ")"
        }
    }

    /// Whether a `setvalue` gives its node's value as a response or a
    /// repeat's instance begins: a default written as an expression.
    private static func setsDefault(_ action: XMLTree) -> Bool {
        let events = (action["event"] ?? "").split(separator: " ")
        return events.contains("odk-instance-first-load") || events.contains("odk-new-repeat")
    }

    private mutating func readBody(_ element: XMLTree, in base: String = "") {
        for child in element.children {
            switch child.name {
            case "group":
                let ref = node(of: child, in: base)
                if let ref { groups[ref] = child }
                readBody(child, in: ref ?? base)
            case "repeat":
                let nodeset = node(of: child, in: base)
                if let nodeset { repeats[nodeset] = child }
                readBody(child, in: nodeset ?? base)
            case "label", "hint":
                continue
            case "setvalue":
                if let ref = action(child, in: base), Self.setsDefault(child) {
                    firstLoadValues[ref] = SetValue(child)
                }
            case "setgeopoint":
                if let ref = action(child, in: base) { startGeopoints.insert(ref) }
            case "recordaudio":
                if let ref = action(child, in: base) { backgroundAudio[ref] = child["odk:quality"] ?? "" }
            default:
                // Any control, known or not: one XLSForm has no type for is
                // refused by name, never read as a hidden value.
                if let ref = node(of: child, in: base) {
                    controls[ref] = child
                    for inner in child.children where inner["event"]?.contains("xforms-value-changed") == true {
                        guard let target = action(inner, in: base) else { continue }
                        switch inner.name {
                        case "setvalue": valueChangedTriggers[target] = (ref, SetValue(inner).expression)
                        case "setgeopoint": backgroundGeopoints[target] = ref
                        default: continue
                        }
                    }
                }
            }
        }
    }

    // MARK: - Names

    /// The nodes a `${name}` can stand for: those whose name no other node
    /// has (a path to one of two `a`s stays a path).
    private mutating func collectNames(_ root: XMLTree, path: [String]) {
        var paths: [String: [String]] = [:]
        func visit(_ element: XMLTree, _ path: [String]) {
            var seen: Set<String> = []
            for child in element.children where seen.insert(child.name).inserted {
                let childPath = path + [child.name]
                paths[child.name, default: []].append("/" + childPath.joined(separator: "/"))
                visit(child, childPath)
            }
        }
        visit(root, path)
        names = [:]
        for (name, found) in paths where found.count == 1 { names[found[0]] = name }
        nodes = Set(paths.values.joined())
    }

    // MARK: - Settings

    private mutating func readSettings(_ primary: XMLTree) {
        if let title = head.child("title")?.text, !title.isEmpty { settings["form_title"] = title }
        if let id = primary["id"] { settings["form_id"] = id }
        if let version = primary["version"] { settings["version"] = version }
        if primary.name != "data" { settings["name"] = primary.name }
        if let defaultLanguage, defaultLanguage != "default" { settings["default_language"] = defaultLanguage }
        if let style = body["class"] { settings["style"] = style }
        if let submission = model.child("submission") {
            if let action = submission["action"] { settings["submission_url"] = action }
            if let key = submission["base64RsaPublicKey"] { settings["public_key"] = key }
        }
        let instanceName = "/\(primary.name)/meta/instanceName"
        if let calculate = binds[instanceName]?["calculate"] {
            settings["instance_name"] = XFormReferences.restore(calculate, at: [primary.name, "meta", "instanceName"], names: names,
                                                                lastSaved: lastSavedID)
        }
    }

    // MARK: - Survey rows

    private mutating func rows(under parent: XMLTree, path: [String]) throws(LimitExceeded) {
        var seen: Set<String> = []
        for node in parent.children where seen.insert(node.name).inserted {
            let nodePath = path + [node.name]
            let ref = "/" + nodePath.joined(separator: "/")
            if node.name == "meta", groups[ref] == nil, let entity = node.child("entity"), entity["dataset"] != nil {
                entityRow(entity, path: nodePath + ["entity"])
                // A repeat's meta holds its entity only.
                if path.count > 1 { continue }
            }
            if path.count == 1, node.name == "meta", groups[ref] == nil {
                // The form's metadata: the engine's own, but an audit log.
                try metaRows(node, path: nodePath)
                continue
            }
            let isGroup = !node.children.isEmpty || groups[ref] != nil || repeats[ref] != nil
            if isGroup {
                try groupRows(node, path: nodePath)
            } else {
                try questionRow(node, path: nodePath)
            }
        }
    }

    /// pyxform's `meta`: the instance id is the engine's own; an audit log
    /// is a row of the survey.
    private mutating func metaRows(_ meta: XMLTree, path: [String]) throws(LimitExceeded) {
        for node in meta.children where node.name == "audit" {
            var row = ["type": "audit", "name": "audit"]
            let bind = binds["/" + (path + ["audit"]).joined(separator: "/")]
            var parameters: [String] = []
            for (attribute, key) in [("odk:location-priority", "location-priority"), ("odk:location-min-interval", "location-min-interval"),
                                     ("odk:location-max-age", "location-max-age"), ("odk:track-changes", "track-changes"),
                                     ("odk:identify-user", "identify-user"), ("odk:track-changes-reasons", "track-changes-reasons")] {
                if let value = bind?[attribute] { parameters.append("\(key)=\(value)") }
            }
            if !parameters.isEmpty { row["parameters"] = parameters.joined(separator: " ") }
            survey.append(row)
        }
    }

    /// pyxform's `meta/entity` (the survey's, or a repeat's): a row of the
    /// entities sheet, its expressions the calculations bound to the entity's
    /// attributes and label.
    private mutating func entityRow(_ entity: XMLTree, path: [String]) {
        let base = "/" + path.joined(separator: "/") + "/"
        // Relative paths start from the label or the attribute itself.
        func calculation(_ node: String) -> String? {
            binds[base + node]?["calculate"].map { restore($0, path + [node]) }
        }
        var row = ["list_name": entity["dataset"] ?? ""]
        row["label"] = calculation("label")
        if entity["create"] != nil { row["create_if"] = calculation("@create") }
        if entity["update"] != nil {
            row["entity_id"] = calculation("@id") ?? ""
            row["update_if"] = calculation("@update")
        }
        // Placed in the survey or a repeat by what it reads, as pyxform placed it.
        entities.append(row)
    }

    private mutating func groupRows(_ node: XMLTree, path: [String]) throws(LimitExceeded) {
        let ref = "/" + path.joined(separator: "/")
        let repeatElement = repeats[ref]
        let kind = repeatElement == nil ? "group" : "repeat"
        var row = ["type": "begin \(kind)", "name": node.name]
        let group = groups[ref]
        if let group { texts(of: group, into: &row, context: path) }
        if let appearance = group?["appearance"] ?? repeatElement?["appearance"] { row["appearance"] = appearance }
        if let count = repeatElement?["jr:count"] {
            row["repeat_count"] = restore(count, path)
            // pyxform's `NAME_count`: a calculation it adds before the repeat
            // for a count that is more than a reference.
            if row["repeat_count"] == "${\(node.name)_count}", let last = survey.last,
               last["type"] == "calculate", last["name"] == "\(node.name)_count", let calculation = last["calculation"] {
                survey.removeLast()
                row["repeat_count"] = calculation
            }
        }
        if let bind = binds[ref] { bindColumns(bind, into: &row, path: path) }
        let begin = survey.count
        survey.append(row)
        try rows(under: node, path: path)
        if repeatElement == nil { restoreTableList(at: begin) }
        survey.append(["type": "end \(kind)"])
    }

    /// pyxform's `table-list` group: a field-list whose label became a note
    /// and whose choices head a select of its own, each select `list-nolabel`.
    /// Read back as the group it was written from.
    private mutating func restoreTableList(at begin: Int) {
        guard survey[begin]["appearance"] == "field-list" else { return }
        var first = begin + 1
        let hasLabelNote = first < survey.count && survey[first]["type"] == "note"
            && survey[first]["name"]?.hasPrefix("generated_table_list_label_") == true
        if hasLabelNote { first += 1 }
        guard first < survey.count, survey[first]["appearance"] == "label",
              survey[first]["name"]?.hasPrefix("reserved_name_for_field_list_labels_") == true else { return }
        survey.remove(at: first)
        if hasLabelNote {
            let note = survey.remove(at: begin + 1)
            for (column, text) in note where column.hasPrefix("label") || column.hasPrefix("hint") || column.hasPrefix("guidance_hint") {
                survey[begin][column] = text
            }
        }
        survey[begin]["appearance"] = "table-list"
        for index in (begin + 1)..<survey.count where survey[index]["appearance"] == "list-nolabel" {
            survey[index]["appearance"] = nil
        }
    }

    private mutating func questionRow(_ node: XMLTree, path: [String]) throws(LimitExceeded) {
        let ref = "/" + path.joined(separator: "/")
        let bind = binds[ref]
        var row = ["name": node.name]
        let control = controls[ref]
        if let control {
            try controlType(control, bind: bind, into: &row, path: path)
            texts(of: control, into: &row, context: path)
            if let appearance = control["appearance"] { row["appearance"] = restore(appearance, path) }
        } else if let quality = backgroundAudio[ref] {
            row["type"] = "background-audio"
            if !quality.isEmpty { row["parameters"] = "quality=\(quality)" }
        } else {
            row["type"] = hiddenType(bind, ref: ref)
        }
        if let bind { bindColumns(bind, into: &row, path: path) }
        if let value = firstLoadValues[ref] {
            row["default"] = value.literal ?? restore(value.expression, path)
        } else if !node.text.allSatisfy(\.isWhitespace), row["type"] != "calculate" {
            // White space alone is a hand-written form's layout, not a value.
            row["default"] = node.text
        }
        // pyxform's `percentage`, `phone number`, …: a type and the constraint it brings.
        if let constraint = row["constraint"], let type = row["type"],
           let alias = XLSFormAliases.typeConstraints.first(where: { alias, typeConstraint in
               typeConstraint == constraint && XLSFormAliases.types[alias] == XLSFormAliases.types[type]
           })?.key {
            row["type"] = alias
            row["constraint"] = nil
        }
        if let source = backgroundGeopoints[ref], row["type"] == "background-geopoint" {
            row["trigger"] = names[source].map { "${\($0)}" } ?? source
        }
        if let trigger = valueChangedTriggers[ref] {
            row["trigger"] = names[trigger.source].map { "${\($0)}" } ?? trigger.source
            row["calculation"] = restore(trigger.value, path)
        }
        if foldsIntoOrOther(row, path: path) { return }
        survey.append(row)
    }

    /// The row a node without a control is: metadata pyxform writes as a
    /// preload, a calculation, or a hidden value.
    private func hiddenType(_ bind: XMLTree?, ref: String) -> String {
        if startGeopoints.contains(ref) { return "start-geopoint" }
        if backgroundGeopoints[ref] != nil { return "background-geopoint" }
        switch (bind?["jr:preload"], bind?["jr:preloadParams"]?.lowercased()) {
        case ("timestamp"?, "start"?): return "start"
        case ("timestamp"?, "end"?): return "end"
        case ("date"?, "today"?): return "today"
        case ("property"?, let property?), ("context"?, let property?):
            // JavaRosa's property names, in the spellings forms use.
            switch property.replacingOccurrences(of: "_", with: "") {
            case "deviceid", "imei", "uri:deviceid": return "deviceid"
            case "username", "uri:username": return "username"
            case "email", "uri:email": return "email"
            case "phonenumber", "uri:phonenumber": return "phonenumber"
            case "simserial", "uri:simserial": return "simserial"
            case "subscriberid", "uri:subscriberid": return "subscriberid"
            default: break
            }
        default: break
        }
        if bind?["calculate"] != nil { return "calculate" }
        return "hidden"
    }

    /// The type of a question with a control, from the control and its bind's type.
    private mutating func controlType(
        _ control: XMLTree, bind: XMLTree?, into row: inout [String: String], path: [String]
    ) throws(LimitExceeded) {
        let bindType = Self.dataType(bind?["type"])
        switch control.name {
        case "input":
            if let query = control["query"] {
                // select_one_external: its choices are the form's itemsets.csv,
                // pyxform's external_choices sheet, from the form's media.
                guard let (list, steps, filter) = Self.instanceItems(query), steps == ["root", "item"] else {
                    throw LimitExceeded("\(row["name"] ?? ""): its choices come from '\(query)', which is not a list of itemsets.csv")
                }
                row["type"] = "select_one_external \(list)"
                if let filter { row["choice_filter"] = restore(filter, path).trimmingCharacters(in: .whitespaces) }
                externalSelect = externalSelect ?? row["name"]
                return
            }
            row["type"] = switch bindType {
            case "int": "integer"
            case "decimal": "decimal"
            case "date": "date"
            case "time": "time"
            case "dateTime": "dateTime"
            case "geopoint": "geopoint"
            case "geotrace": "geotrace"
            case "geoshape": "geoshape"
            case "barcode": "barcode"
            case "binary": "file"
            default:
                Self.isNote(bind) ? "note" : "text"
            }
            var parameters: [String] = []
            if let rows = control["rows"] { parameters.append("rows=\(rows)") }
            if let accuracy = control["accuracyThreshold"] { parameters.append("capture-accuracy=\(accuracy)") }
            if let accuracy = control["unacceptableAccuracyThreshold"] { parameters.append("warning-accuracy=\(accuracy)") }
            if !parameters.isEmpty { row["parameters"] = parameters.joined(separator: " ") }
        case "select1", "select", "rank":
            let kind = control.name == "select1" ? "select_one" : control.name == "select" ? "select_multiple" : "rank"
            try choiceType(kind, control: control, into: &row, path: path)
        case "upload":
            let mediatype = control["mediatype"] ?? ""
            row["type"] = mediatype.hasPrefix("image/") ? "image" : mediatype.hasPrefix("audio/") ? "audio"
                : mediatype.hasPrefix("video/") ? "video" : mediatype.hasPrefix("osm/") ? "osm" : "file"
            if let accept = control["accept"] { row["body::accept"] = accept }
            var parameters: [String] = []
            if let pixels = bind?["orx:max-pixels"] { parameters.append("max-pixels=\(pixels)") }
            if let quality = bind?["odk:quality"] { parameters.append("quality=\(quality)") }
            if !parameters.isEmpty { row["parameters"] = parameters.joined(separator: " ") }
        case "trigger":
            row["type"] = "acknowledge"
        case "range":
            row["type"] = "range"
            let start = control["start"] ?? "1", end = control["end"] ?? "10", step = control["step"] ?? "1"
            var parameters: [String] = []
            // pyxform writes the defaults out; a range without parameters reads 1 to 10 by 1.
            if (start, end, step) != ("1", "10", "1") {
                parameters = ["start=\(start)", "end=\(end)", "step=\(step)"]
            }
            if let ticks = control["odk:tick-interval"] { parameters.append("tick_interval=\(ticks)") }
            if let placeholder = control["odk:placeholder"] { parameters.append("placeholder=\(placeholder)") }
            if !parameters.isEmpty { row["parameters"] = parameters.joined(separator: " ") }
        default:
            throw LimitExceeded("\(row["name"] ?? ""): a <\(control.name)> control, which XLSForm has no type for")
        }
    }

    /// A bind's `type` as pyxform writes it: hand-written forms add XML
    /// Schema's prefix (`xsd:int`) and JavaRosa takes `integer` and
    /// `datetime` too.
    private static func dataType(_ written: String?) -> String {
        guard var type = written?.trimmingCharacters(in: .whitespaces), !type.isEmpty else { return "string" }
        if let colon = type.firstIndex(of: ":"), type[..<colon] != "odk" { type = String(type[type.index(after: colon)...]) }
        switch type.lowercased() {
        case "integer", "int": return "int"
        case "datetime": return "dateTime"
        default: return type
        }
    }

    /// pyxform writes a note's bind from its type, `readonly` before `type`,
    /// and a read-only text's from its row, `type` first.
    private static func isNote(_ bind: XMLTree?) -> Bool {
        guard let bind, bind["readonly"] == "true()", bind["calculate"] == nil,
              let readonly = bind.attributeOrder.firstIndex(of: "readonly") else { return false }
        guard let type = bind.attributeOrder.firstIndex(of: "type") else { return true }
        return readonly < type
    }

    /// A select's type and list: a list of the form's own (a secondary
    /// instance, or items written in the control), a data file's, or a
    /// repeat's answers.
    private mutating func choiceType(
        _ kind: String, control: XMLTree, into row: inout [String: String], path: [String]
    ) throws(LimitExceeded) {
        let name = row["name"] ?? ""
        if let itemset = control.child("itemset"), var nodeset = itemset["nodeset"] {
            var parameters: [String] = []
            // `randomize(instance('list')/root/item, seed)`.
            if nodeset.hasPrefix("randomize("), nodeset.hasSuffix(")") {
                let inner = String(nodeset.dropFirst("randomize(".count).dropLast())
                let split = ExpressionText.arguments(inner)
                nodeset = split.first ?? inner
                parameters.append("randomize=true")
                if split.count > 1 { parameters.append("seed=\(restore(split[1], path))") }
            }
            let valueRef = itemset.child("value")?["ref"] ?? "name"
            let labelRef = itemset.child("label")?["ref"] ?? "label"
            if let (id, steps, filter) = Self.instanceItems(nodeset) {
                guard let instance = instances[id] else {
                    throw LimitExceeded("\(name): its choices come from instance('\(id)'), which the form does not have")
                }
                if let source = instance["src"] {
                    let file = source.split(separator: "/").last.map(String.init) ?? source
                    row["type"] = "\(kind)_from_file \(file)"
                    let isGeoJSON = file.lowercased().hasSuffix(".geojson")
                    let defaults = isGeoJSON ? ("id", "title") : ("name", "label")
                    if (valueRef, labelRef) != defaults { parameters.append(contentsOf: ["value=\(valueRef)", "label=\(labelRef)"]) }
                } else {
                    // pyxform's lists are `root/item`; another path is a list of its own.
                    let list = steps == ["root", "item"] ? id : "\(id)_\(steps.joined(separator: "_"))"
                    row["type"] = "\(kind) \(list)"
                    writeList(list, items: Self.items(of: instance, at: steps), valueRef: valueRef, labelRef: labelRef)
                }
                if let filter { row["choice_filter"] = restore(filter, path).trimmingCharacters(in: .whitespaces) }
            } else if let (repeatPath, filter) = Self.pathItems(nodeset), let answer = names[repeatPath + "/" + valueRef] {
                row["type"] = "\(kind) ${\(answer)}"
                if let filter { row["choice_filter"] = restore(filter, path).trimmingCharacters(in: .whitespaces) }
            } else {
                throw LimitExceeded("\(name): its choices come from '\(nodeset)', which is neither a list nor a repeat's answers")
            }
            if !parameters.isEmpty { row["parameters"] = parameters.joined(separator: " ") }
        } else {
            // Items written in the control: a list of their own, shared by
            // the controls that write the same items (a table-list's rows).
            var written: [[String: String]] = []
            for item in control.children("item") {
                let value = item.child("value")?.text.trimmingCharacters(in: .whitespaces) ?? ""
                guard !value.isEmpty else { continue }  // a placeholder, which no one can choose
                var choice = ["name": value]
                if let label = item.child("label") { texts(label, column: "label", into: &choice, context: path) }
                written.append(choice)
            }
            let signature = written.map { $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\u{1}") }
                .joined(separator: "\u{2}")
            if let list = inlineLists[signature] {
                row["type"] = "\(kind) \(list)"
            } else {
                let list = uniqueListName(name)
                row["type"] = "\(kind) \(list)"
                inlineLists[signature] = list
                listsWritten.insert(list)
                choices += written.map { $0.merging(["list_name": list]) { _, new in new } }
            }
        }
    }

    private func uniqueListName(_ base: String) -> String {
        var name = base, counter = 1
        while instances[name] != nil || listsWritten.contains(name) {
            counter += 1
            name = "\(base)_\(counter)"
        }
        return name
    }

    /// A list of the form's own, once: its items' names, labels in each
    /// language (inline, or through `itextId`), media and other columns.
    private mutating func writeList(_ id: String, items: [XMLTree], valueRef: String, labelRef: String) {
        guard listsWritten.insert(id).inserted else { return }
        // `jr:itext(itextId)`: the label is the itext named by that field.
        let itextField = Self.itextField(labelRef)
        for item in items {
            var choice = ["list_name": id]
            // An item that is only text (`<item>3</item>`) is its own name.
            if item.children.isEmpty { choice["name"] = item.text.trimmingCharacters(in: .whitespacesAndNewlines) }
            for field in item.children {
                switch field.name {
                case valueRef: choice["name"] = field.text
                case itextField: translatedTexts(id: field.text, column: "label", into: &choice, context: [])
                case labelRef: choice["label"] = field.text
                default: choice[field.name] = field.text
                }
            }
            guard choice["name"]?.isEmpty == false else { continue }
            choices.append(choice)
        }
    }

    /// `jr:itext(field)` → `field`.
    private static func itextField(_ ref: String) -> String? {
        let trimmed = ref.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("jr:itext("), trimmed.hasSuffix(")") else { return nil }
        return trimmed.dropFirst("jr:itext(".count).dropLast().trimmingCharacters(in: .whitespaces)
    }

    /// The elements at `steps` in a secondary instance (`["root", "item"]`).
    private static func items(of instance: XMLTree, at steps: [String]) -> [XMLTree] {
        guard let root = instance.children.first, steps.first == root.name else { return [] }
        var level = [root]
        for step in steps.dropFirst() { level = level.flatMap { $0.children(step) } }
        return level
    }

    // MARK: - Columns from the bind and the body

    private func bindColumns(_ bind: XMLTree, into row: inout [String: String], path: [String]) {
        let isNote = row["type"] == "note"
        if let relevant = bind["relevant"] { row["relevant"] = restore(relevant, path) }
        if let constraint = bind["constraint"] { row["constraint"] = restore(constraint, path) }
        if let required = bind["required"], required != "false()" {
            row["required"] = required == "true()" ? "yes" : restore(required, path)
        }
        if let readonly = bind["readonly"], readonly != "false()", !isNote,
           row["type"] != "calculate", bind["jr:preload"] == nil {
            row["read_only"] = readonly == "true()" ? "yes" : restore(readonly, path)
        }
        if let calculate = bind["calculate"] {
            row["calculation"] = restore(calculate, path)
        }
        if let property = bind["entities:saveto"] { row["save_to"] = property }
        messages(bind["jr:constraintMsg"], column: "constraint_message", into: &row, path: path)
        messages(bind["jr:requiredMsg"], column: "required_message", into: &row, path: path)
    }

    private func messages(_ value: String?, column: String, into row: inout [String: String], path: [String]) {
        guard let value else { return }
        if let id = Self.itextID(value) {
            translatedTexts(id: id, column: column, into: &row, context: path)
        } else {
            row[column] = value
        }
    }

    /// A control's or a group's label and hint, with their media and guidance.
    private func texts(of element: XMLTree, into row: inout [String: String], context: [String]) {
        if let label = element.child("label") { texts(label, column: "label", into: &row, context: context) }
        if let hint = element.child("hint") { texts(hint, column: "hint", into: &row, context: context) }
    }

    private func texts(_ element: XMLTree, column: String, into row: inout [String: String], context: [String]) {
        if let ref = element["ref"], let id = Self.itextID(ref) {
            translatedTexts(id: id, column: column, into: &row, context: context)
        } else {
            let text = labelText(element, context: context)
            if !text.isEmpty { row[column] = text }
        }
    }

    /// An itext entry in each language: its text under `column`, its media
    /// and (for a hint) its guidance under theirs; pyxform's `-` for a
    /// translation the sheet left empty is no text.
    private func translatedTexts(id: String, column: String, into row: inout [String: String], context: [String]) {
        for (language, texts) in itext {
            guard let forms = texts[id] else { continue }
            let suffix = language == "default" ? "" : "::" + language
            for (form, element) in forms {
                let value = labelText(element, context: context)
                guard value != "-", !value.isEmpty else { continue }
                switch form {
                case "", "long": row[column + suffix] = value
                case "guidance": row["guidance_hint" + suffix] = value
                case "image", "audio", "video", "big-image":
                    row["media::\(form)" + suffix] = value.split(separator: "/").last.map(String.init) ?? value
                default: continue
                }
            }
        }
    }

    /// A label's text with each `<output value="…"/>` written as `${name}`,
    /// without the white space pyxform puts around a label that has one.
    private func labelText(_ element: XMLTree, context: [String]) -> String {
        element.content.map { content -> String in
            switch content {
            case .text(let text): text
            case .element(let inner) where inner.name == "output":
                restore(inner["value"] ?? "", context).trimmingCharacters(in: .whitespaces)
            case .element(let inner): labelText(inner, context: context)
            }
        }.joined().trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func restore(_ expression: String, _ path: [String]) -> String {
        XFormReferences.restore(expression, at: path, names: names, lastSaved: lastSavedID)
    }

    /// The id of the instance that is the last saved response: any the form
    /// names so (JavaRosa's tests call it `last-saved`), else pyxform's.
    private var lastSavedID: String { namedLastSaved ?? XFormReferences.lastSavedInstance }

    // MARK: - or_other

    /// pyxform's `or_other`: a select whose list ends with "other", followed
    /// by `NAME_other`, a text shown when "other" is chosen. Read back as the
    /// one row it was written from.
    private mutating func foldsIntoOrOther(_ row: [String: String], path: [String]) -> Bool {
        guard let name = row["name"], name.hasSuffix("_other"), row["type"] == "text",
              row["label"] == "Specify other.", let relevant = row["relevant"],
              let previous = survey.indices.last, let selectName = survey[previous]["name"],
              name == selectName + "_other",
              relevant == "selected(${\(selectName)}, 'other')",
              let type = survey[previous]["type"], type.hasPrefix("select_one ") || type.hasPrefix("select_multiple "),
              let list = type.split(separator: " ").last.map(String.init),
              choices.last(where: { $0["list_name"] == list })?["name"] == "other" else { return false }
        survey[previous]["type"] = type + " or_other"
        otherLists.insert(list)
        return true
    }

    // MARK: - External instances

    /// `csv-external` and `xml-external` rows for the data files the form
    /// reads through `instance()` but chooses from nowhere, each before the
    /// first row that reads it, as an author writes them.
    private mutating func placeExternalInstances() {
        let chosenFrom = Set(survey.compactMap { $0["type"] }.filter { $0.contains("_from_file ") }.compactMap {
            $0.split(separator: " ").last.map(String.init)
        })
        for (id, instance) in instances.sorted(by: { $0.key < $1.key }) {
            // The last saved response is the engine's own, read as `${last-saved#…}`.
            guard let source = instance["src"], source != "jr://instance/last-saved" else { continue }
            let file = source.split(separator: "/").last.map(String.init) ?? source
            guard !chosenFrom.contains(file) else { continue }
            let kind = file.lowercased().hasSuffix(".csv") ? "csv-external" : "xml-external"
            let reader = "instance('\(id)')"
            guard let first = survey.firstIndex(where: { row in row.values.contains { $0.contains(reader) } }) else { continue }
            survey.insert(["type": kind, "name": id], at: first)
            if file != id + (kind == "csv-external" ? ".csv" : ".xml") { dataFileNames[id] = file }
        }
    }

    /// The form's own secondary instances that expressions read
    /// (`instance('numbers')/root/item[…]`) and no select chose from: each a
    /// choice list, which is what the engine reads `instance()` from; one of
    /// another shape is kept whole, as a data file's document.
    private mutating func writeListsReadByExpressions() {
        for (id, instance) in instances.sorted(by: { $0.key < $1.key }) where instance["src"] == nil && !listsWritten.contains(id) {
            let reader = "instance('\(id)')"
            guard survey.contains(where: { row in row.values.contains { $0.contains(reader) } }) else { continue }
            let items = Self.items(of: instance, at: ["root", "item"])
            guard !items.isEmpty || instance.children.first?.name == "root" else {
                if let document = instance.children.first { embeddedInstances[id] = ExternalFileReader.document(document) }
                continue
            }
            let valueRef = items.first?.child("name") != nil ? "name" : items.first?.children.first?.name ?? "name"
            writeList(id, items: items, valueRef: valueRef, labelRef: "label")
        }
    }

    /// `itemsets.csv` from the form's media, as the external_choices sheet
    /// pyxform wrote it from.
    private func itemsets(for question: String) throws(LimitExceeded) -> Sheet {
        let data: Data
        do {
            data = try media.data(named: "itemsets.csv")
        } catch .missing {
            throw LimitExceeded("\(question): select_one_external reads its choices from itemsets.csv, which is not in the form's media (\(media.searchedPlaces.isEmpty ? "a form read from memory has none" : media.searchedPlaces))")
        } catch .tooLarge {
            throw LimitExceeded("itemsets.csv is larger than \(FormLimits.dataFileBytes >> 20) MB")
        } catch .unreadable(let reason) {
            throw LimitExceeded("itemsets.csv cannot be read: \(reason)")
        } catch {
            throw LimitExceeded("itemsets.csv cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw LimitExceeded("itemsets.csv is not UTF-8 text") }
        let records: [[String]]
        do {
            records = try CSVLayoutReader.records(text, strict: true)
        } catch {
            throw LimitExceeded("itemsets.csv: \(error.reason)")
        }
        let rows = records.enumerated().filter { !($0.element.count == 1 && $0.element[0].isEmpty) }
            .map { SheetRow(number: $0.offset + 1, cells: $0.element) }
        return Sheet(name: "external_choices", rows: rows)
    }

    // MARK: - Sheets

    private func sheets() -> [Sheet] {
        var result = [Self.sheet("survey", survey, first: ["type", "name", "label"])]
        let listed = choices.filter { choice in
            // The "other" pyxform added for `or_other` comes back from the row.
            !(otherLists.contains(choice["list_name"] ?? "") && choice["name"] == "other"
                && choice.allSatisfy { column, text in !column.hasPrefix("label") || text == "Other" })
        }
        if !listed.isEmpty { result.append(Self.sheet("choices", listed, first: ["list_name", "name", "label"])) }
        if !settings.isEmpty { result.append(Self.sheet("settings", [settings], first: ["form_title", "form_id", "version"])) }
        if let externalChoices { result.append(externalChoices) }
        if !entities.isEmpty { result.append(Self.sheet("entities", entities, first: ["list_name", "label"])) }
        return result
    }

    private static func sheet(_ name: String, _ rows: [[String: String]], first: [String]) -> Sheet {
        var header = first.filter { column in rows.contains { $0[column] != nil } }
        for row in rows {
            for column in row.keys.sorted() where !header.contains(column) { header.append(column) }
        }
        var sheetRows = [SheetRow(number: 1, cells: header)]
        for (offset, row) in rows.enumerated() {
            sheetRows.append(SheetRow(number: offset + 2, cells: header.map { row[$0] ?? "" }))
        }
        return Sheet(name: name, rows: sheetRows)
    }

    // MARK: - Reading references

    /// `jr:itext('id')` → `id`.
    private static func itextID(_ value: String) -> String? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("jr:itext("), trimmed.hasSuffix(")") else { return nil }
        let inner = trimmed.dropFirst("jr:itext(".count).dropLast().trimmingCharacters(in: .whitespaces)
        guard inner.count >= 2, let quote = inner.first, quote == "'" || quote == "\"", inner.last == quote else { return nil }
        return String(inner.dropFirst().dropLast())
    }

    /// `instance('id')/root/item[filter]` → (`id`, `filter`).
    private static func instanceItems(_ nodeset: String) -> (String, [String], String?)? {
        let trimmed = nodeset.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("instance("), let close = trimmed.firstIndex(of: ")") else { return nil }
        let id = trimmed[trimmed.index(trimmed.startIndex, offsetBy: "instance(".count)..<close]
            .trimmingCharacters(in: CharacterSet(charactersIn: "'\" "))
        var rest = Substring(trimmed[trimmed.index(after: close)...])
        var filter: String?
        if let open = rest.firstIndex(of: "[") {
            filter = predicate(String(rest[open...]))
            guard filter != nil else { return nil }
            rest = rest[..<open]
        }
        let steps = rest.split(separator: "/").map(String.init)
        guard rest.hasPrefix("/"), !steps.isEmpty, steps.allSatisfy({ isNCName($0) }) else { return nil }
        return (id, steps, filter)
    }

    /// `/data/repeat[filter]` → (`/data/repeat`, `filter`).
    private static func pathItems(_ nodeset: String) -> (String, String?)? {
        let trimmed = nodeset.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("/") else { return nil }
        guard let open = trimmed.firstIndex(of: "[") else { return (trimmed, nil) }
        return (String(trimmed[..<open]), predicate(String(trimmed[open...])))
    }

    /// The text inside one `[…]` that makes up all of `text`, as written (a
    /// path pyxform put last keeps the space after it), or nil when there is none.
    private static func predicate(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("["), trimmed.hasSuffix("]") else { return nil }
        return String(trimmed.dropFirst().dropLast())
    }
}
