import Foundation

/// The secondary instances a running form reads, as pyxform declares them:
/// one per choice list (its id the list's name), and one per data file the
/// form names (`select_one_from_file towns.csv` and `pulldata('towns', …)`
/// read `towns`; `csv-external towns` and `xml-external towns` too).
struct FormInstances: Sendable {
    /// By id, as `instance('id')` names them.
    var byID: [String: SecondaryInstance] = [:]
    /// `jr:itext()`'s texts by id: a choice's label (`list-0`, as pyxform
    /// numbers a translated list's items) or a question's (`/q:label`, the
    /// path below the root).
    var itext: [String: TranslatedText] = [:]
    /// The choices of each `select_…_from_file` question, by its row's entry.
    var fileChoices: [Int: ChoiceList] = [:]

    /// The text for `jr:itext(id)`: `/data/group/q:label` is read below the
    /// root, whatever the root is named.
    func itextText(_ id: String) -> TranslatedText? {
        if let text = itext[id] { return text }
        guard id.hasPrefix("/"), let slash = id.dropFirst().firstIndex(of: "/") else { return nil }
        return itext[String(id[slash...])]
    }
}

/// A data file a form needs, and the first row that names it.
private struct DataFile {
    var id: String
    var fileName: String
    var row: Int
    /// The sheet of `row`.
    var sheet = "survey"
}

extension FormPlan {
    /// Makes the form's instances, reading its data files from `media`; a
    /// missing or broken file, and an `instance()` of nothing, is a problem
    /// naming its row.
    mutating func makeInstances(media: FormMedia) {
        var instances = FormInstances()
        addChoiceLists(to: &instances)
        for (id, root) in definition.embeddedInstances where instances.byID[id] == nil {
            instances.byID[id] = SecondaryInstance(id: id, root: root)
        }
        for question in definition.allQuestions {
            for kind in ["label", "hint"] {
                let text = kind == "label" ? question.label : question.hint
                if !text.isEmpty { instances.itext["/\(question.pathString):\(kind)"] = text }
            }
        }

        var files: [DataFile] = []
        func need(_ id: String, _ fileName: String, row: Int, sheet: String = "survey") {
            if let known = files.first(where: { $0.id == id }) {
                if known.fileName != fileName {
                    problems.append(FormProblem(
                        sheet: sheet, row: row,
                        "'\(fileName)' and '\(known.fileName)' (row \(known.row)) would both be read as instance('\(id)')."
                    ))
                }
                return
            }
            files.append(DataFile(id: id, fileName: fileName, row: row, sheet: sheet))
        }
        for entry in entries {
            let question = entry.question
            switch question.type {
            case .selectOneFromFile, .selectMultipleFromFile:
                if let fileName = question.listName {
                    need((fileName as NSString).deletingPathExtension, fileName, row: question.row)
                }
            case QuestionType.csvExternal:
                need(question.name, definition.dataFileNames[question.name] ?? question.name + ".csv", row: question.row)
            case QuestionType.xmlExternal:
                need(question.name, definition.dataFileNames[question.name] ?? question.name + ".xml", row: question.row)
            default: break
            }
            for expression in entry.expressions {
                for id in expression.pulldataIDs { need(id, definition.dataFileNames[id] ?? id + ".csv", row: question.row) }
            }
        }
        // An update reads the entity's versions from the list, which the
        // server gives the form as `LIST.csv`.
        for entity in entities where entity.declaration.updates {
            let dataset = entity.declaration.dataset
            if instances.byID[dataset] == nil { need(dataset, dataset + ".csv", row: entity.declaration.row, sheet: "entities") }
        }
        func read(_ file: DataFile) -> SecondaryInstance? {
            do {
                let data = try media.data(named: file.fileName)
                return try ExternalFileReader.instance(id: file.id, fileName: file.fileName, data: data)
            } catch let failure as FormMedia.Failure {
                problems.append(FormProblem(sheet: file.sheet, row: file.row, Self.message(failure, file: file.fileName, media: media)))
            } catch {
                let reason = (error as? LimitExceeded)?.reason ?? "\(error)"
                problems.append(FormProblem(sheet: file.sheet, row: file.row, "The data file '\(file.fileName)' cannot be read: \(reason)."))
            }
            return nil
        }
        for file in files {
            if instances.byID[file.id] != nil {
                problems.append(FormProblem(
                    sheet: "survey", row: file.row,
                    "'\(file.fileName)' would be read as instance('\(file.id)'), which is already the choice list '\(file.id)'."
                ))
                continue
            }
            instances.byID[file.id] = read(file)
        }
        // A `search()` file is the select's alone, as in Collect: not an
        // instance, so it may share its name with the select's list.
        var searchFiles: [String: SecondaryInstance] = [:]
        for entry in entries {
            guard let search = entry.search, searchFiles[search.fileID] == nil else { continue }
            let file = DataFile(id: search.fileID, fileName: search.fileID + ".csv", row: entry.question.row)
            if let known = files.first(where: { $0.id == file.id && $0.fileName == file.fileName }) {
                searchFiles[file.id] = instances.byID[known.id]
            } else {
                searchFiles[file.id] = read(file)
            }
        }

        for entry in entries {
            for expression in entry.expressions {
                for id in expression.instanceIDs where instances.byID[id] == nil && !files.contains(where: { $0.id == id }) {
                    problems.append(FormProblem(
                        sheet: "survey", row: entry.question.row,
                        "instance('\(id)') names no choice list and no data file of the form."
                    ))
                }
            }
        }

        for (index, entry) in entries.enumerated() {
            let question = entry.question
            guard question.type == .selectOneFromFile || question.type == .selectMultipleFromFile,
                  let fileName = question.listName,
                  let instance = instances.byID[(fileName as NSString).deletingPathExtension] else { continue }
            let isGeoJSON = (fileName as NSString).pathExtension.lowercased() == "geojson"
            let valueField = question.parameters["value"] ?? (isGeoJSON ? "id" : "name")
            let labelField = question.parameters["label"] ?? (isGeoJSON ? "title" : "label")
            let choices = instance.items.map { item in
                var properties: [String: String] = [:]
                for field in item.children { properties[field.name] = field.stringValue }
                let label = properties[labelField] ?? ""
                return Choice(
                    name: properties[valueField] ?? "", label: TranslatedText([FormDefinition.defaultLanguageName: label]),
                    properties: properties, row: 0
                )
            }
            instances.fileChoices[index] = ChoiceList(name: fileName, choices: choices)
        }
        for (index, entry) in entries.enumerated() {
            guard let search = entry.search, let instance = searchFiles[search.fileID] else { continue }
            let question = entry.question
            guard let placeholder = question.listName.flatMap({ definition.choiceLists[$0] })?.choices.first(where: { !$0.isGenerated }) else {
                problems.append(FormProblem(
                    sheet: "survey", row: question.row,
                    "'\(question.name)' searches '\(search.fileID).csv', but its list has no choice naming the file's columns (its name the column of values, its label the columns shown)."
                ))
                continue
            }
            let header = Set(instance.items.first?.children.map(\.name) ?? [])
            let named = [placeholder.name] + search.columns + [search.filterColumn].compactMap { $0 }
            if !instance.items.isEmpty, let missing = named.first(where: { !header.contains($0) }) {
                problems.append(FormProblem(
                    sheet: "survey", row: question.row,
                    "'\(question.name)' searches the column '\(missing)' of '\(search.fileID).csv', which has no such column."
                ))
                continue
            }
            instances.fileChoices[index] = ChoiceList(
                name: search.fileID, choices: ExternalSearch.choices(of: instance, placeholder: placeholder)
            )
        }
        self.instances = instances
    }

    /// Every choice list as the instance pyxform writes for it: items of
    /// `name`, then `label` or (when translated) `itextId`, then the
    /// list's other columns.
    private func addChoiceLists(to instances: inout FormInstances) {
        for list in definition.choiceLists.values {
            let translated = list.choices.contains { choice in
                choice.label.byLanguage.keys.contains { $0 != FormDefinition.defaultLanguageName }
            }
            let items = list.choices.enumerated().map { index, choice in
                let itextID = "\(list.name)-\(index)"
                instances.itext[itextID] = choice.label
                var fields: [(String, String)] = translated ? [("itextId", itextID)] : []
                fields.append(("name", choice.name))
                if !translated { fields.append(("label", choice.label.text(in: nil) ?? "")) }
                for key in choice.properties.keys.sorted() { fields.append((key, choice.properties[key] ?? "")) }
                return InstanceNode.item(fields)
            }
            instances.byID[list.name] = SecondaryInstance(id: list.name, root: InstanceNode(name: "root", children: items))
        }
    }

    /// The choices the select of entry `index` offers: its list from the
    /// choices sheet (the external_choices sheet for `select_one_external`),
    /// or from its data file.
    func choiceList(ofEntry index: Int) -> ChoiceList? {
        if let fromFile = instances.fileChoices[index] { return fromFile }
        let question = entries[index].question
        let lists = question.type == .selectOneExternal ? definition.externalChoiceLists : definition.choiceLists
        return question.listName.flatMap { lists[$0] }
    }

    private static func message(_ failure: FormMedia.Failure, file: String, media: FormMedia) -> String {
        switch failure {
        case .missing where media.folders.isEmpty:
            "The data file '\(file)' is needed, and this form has no folder to find it in."
        case .missing:
            "The data file '\(file)' is missing: it was looked for in \(media.searchedPlaces)."
        case .tooLarge:
            "The data file '\(file)' is larger than \(FormLimits.dataFileBytes >> 20) MB."
        case .unreadable(let reason):
            "The data file '\(file)' cannot be read: \(reason)."
        }
    }
}

extension FormPlan.Entry {
    /// Every expression of the row.
    var expressions: [FormExpression] {
        [relevant, constraint, calculation, required, readOnly, choiceFilter, repeatCount, dynamicDefault, choiceSeed]
            .compactMap { $0 }
            + triggers + (search?.expressions ?? [])
    }
}

extension QuestionType {
    /// `csv-external NAME`: `NAME.csv` beside the form, read as `instance('NAME')`.
    static let csvExternal = QuestionType("csv-external")
    /// `xml-external NAME`: `NAME.xml` beside the form, read as `instance('NAME')`.
    static let xmlExternal = QuestionType("xml-external")

    /// Whether the row only declares a data file: no answer, no control.
    public var isDataFileDeclaration: Bool { self == .csvExternal || self == .xmlExternal }
}
