public import Foundation

extension FormDefinition {
    /// Reads and checks the form file at `url` (`.xlsx`, `.csv` or `.md`).
    ///
    /// A form the reference converter would refuse is refused here too, with
    /// every problem found, each naming its sheet and row.
    public init(contentsOf url: URL) throws(FormDefinitionError) {
        let workbook: Workbook
        do {
            workbook = try WorkbookReader.read(contentsOf: url)
        } catch {
            throw FormDefinitionError([FormProblem(error.description)])
        }
        try self.init(workbook: workbook, fileName: url.lastPathComponent)
    }

    /// Reads and checks a form file's bytes; `fileName`'s extension names the
    /// layout (`.xlsx`, `.csv` or `.md`) and its stem the id when the settings
    /// sheet has none.
    public init(data: Data, fileName: String) throws(FormDefinitionError) {
        let workbook: Workbook
        do {
            workbook = try WorkbookReader.read(data, fileName: fileName)
        } catch {
            throw FormDefinitionError([FormProblem(error.description)])
        }
        try self.init(workbook: workbook, fileName: fileName)
    }

    /// Reads and checks a form from a workbook; `fileName` gives the id when the
    /// settings sheet has none.
    public init(workbook: Workbook, fileName: String) throws(FormDefinitionError) {
        var parser = FormParser(workbook: workbook, fileName: fileName)
        let definition = parser.parse()
        guard parser.problems.isEmpty, let definition else {
            throw FormDefinitionError(parser.problems)
        }
        self = definition
    }
}

/// Turns a workbook into a `FormDefinition`, collecting what is wrong with it.
struct FormParser {
    let workbook: Workbook
    let fileName: String
    var problems: [FormProblem] = []

    init(workbook: Workbook, fileName: String) {
        self.workbook = workbook
        self.fileName = fileName
    }

    // MARK: - Sheets

    private func sheet(_ name: String) -> Sheet? {
        if workbook.sheets.count == 1, name == "survey",
           !Workbook.formSheetNames.contains(workbook.sheets[0].name.lowercased()) {
            return workbook.sheets[0]
        }
        return workbook.sheet(named: name)
    }

    mutating func parse() -> FormDefinition? {
        if workbook.layout == .csv {
            for sheet in workbook.sheets where !Workbook.formSheetNames.contains(sheet.name.lowercased()) {
                problems.append(FormProblem("The sheet '\(sheet.name)' is not an XLSForm sheet; a .csv form holds only survey, choices and settings."))
            }
        }
        if workbook.layout == .markdown {
            checkMarkdownRowWidths()
        }
        guard let surveySheet = sheet("survey") else {
            problems.append(FormProblem("The form has no sheet named 'survey'."))
            return nil
        }
        let settings = parseSettings()
        let choiceTable = sheet("choices").map {
            SheetTable($0, name: "choices", layout: workbook.layout, aliases: XLSFormAliases.choiceColumns,
                       collapsesSpaces: false, problems: &problems)
        }
        let allowsDuplicateChoices = settings.values["allow_choice_duplicates"].map {
            ["yes", "true", "true()"].contains($0.lowercased())
        } ?? false
        let choiceLists = parseChoices(choiceTable, allowsDuplicates: allowsDuplicateChoices)
        // What pyxform writes to itemsets.csv for `select_one_external`:
        // a list's choices, filtered by the other columns.
        let externalTable = sheet("external_choices").map {
            SheetTable($0, name: "external_choices", layout: workbook.layout, aliases: XLSFormAliases.choiceColumns,
                       collapsesSpaces: false, problems: &problems)
        }
        let externalChoiceLists = parseChoices(externalTable, allowsDuplicates: true)
        let surveyTable = SheetTable(
            surveySheet, name: "survey", layout: workbook.layout, aliases: XLSFormAliases.surveyColumns,
            grouped: XLSFormAliases.groupedColumns, collapsesSpaces: settings.cleansText, problems: &problems
        )
        if !surveyTable.columns.contains(where: { $0.name == "type" }) {
            problems.append(FormProblem(sheet: "survey", "The sheet has no 'type' column."))
            return nil
        }
        var formSettings = settings.values
        var builder = SurveyBuilder(
            choiceLists: choiceLists, hasChoicesSheet: choiceTable != nil,
            externalChoiceLists: externalTable == nil ? nil : externalChoiceLists,
            checksAuthoring: workbook.layout != .xform
        )
        builder.build(surveyTable, settings: &formSettings)
        problems += builder.problems

        let entityTable = sheet("entities").map {
            SheetTable($0, name: "entities", layout: workbook.layout, aliases: EntitySheetParser.aliases,
                       collapsesSpaces: settings.cleansText, problems: &problems)
        }
        checkReferences(survey: surveyTable, choices: choiceTable, settings: settings.table, entities: entityTable,
                        names: builder.elementNames)
        var entityParser = EntitySheetParser()
        let entities = entityParser.parse(entityTable, survey: surveyTable, questions: builder.questions)
        problems += entityParser.problems

        let id = formSettings["form_id"] ?? Self.fileStem(fileName)
        var definitionSettings = FormSettings(
            id: id,
            version: formSettings["version"],
            title: formSettings["form_title"] ?? id,
            defaultLanguage: formSettings["default_language"],
            instanceName: formSettings["instance_name"],
            style: formSettings["style"]
        )
        if let name = formSettings["name"], XMLName.isValid(name) { definitionSettings.rootName = name }
        if let key = formSettings["public_key"], !key.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            definitionSettings.publicKey = key
        }
        return FormDefinition(
            settings: definitionSettings,
            questions: builder.questions,
            choiceLists: SurveyBuilder.addingOtherChoice(to: choiceLists, for: builder.otherChoiceLists),
            languages: Self.languages(survey: surveyTable, choices: choiceTable),
            externalChoiceLists: externalChoiceLists,
            entities: entities,
            embeddedInstances: workbook.embeddedInstances,
            dataFileNames: workbook.dataFileNames
        )
    }

    /// A Markdown row with a cell beyond its sheet's header has no column to
    /// go in; the reference converter refuses such a file.
    private mutating func checkMarkdownRowWidths() {
        for sheet in workbook.sheets {
            guard let header = sheet.rows.first else { continue }
            let width = header.cells.lastIndex(where: { !$0.isEmpty }).map { $0 + 1 } ?? 0
            for row in sheet.rows.dropFirst() where row.cells.count > header.cells.count
                && row.cells[header.cells.count...].contains(where: { !$0.isEmpty }) {
                problems.append(FormProblem(
                    sheet: sheet.name.lowercased(), row: row.number,
                    "The row has a cell beyond the \(width) columns of the sheet's header."
                ))
            }
        }
    }

    /// The file's name without its last extension.
    static func fileStem(_ fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return fileName }
        return String(fileName[..<dot])
    }

    // MARK: - Settings

    private mutating func parseSettings() -> (values: [String: String], table: SheetTable?, cleansText: Bool) {
        guard let sheet = sheet("settings") else { return ([:], nil, true) }
        let table = SheetTable(sheet, name: "settings", layout: workbook.layout, aliases: XLSFormAliases.settingsKeys,
                               collapsesSpaces: false, problems: &problems)
        var values: [String: String] = [:]
        // Only the first data row counts, even when it is empty.
        if let first = table.rows.first, workbook.layout != .spreadsheet || first.number == 2 {
            // With both `form_id` and its older name `id_string`, `form_id` counts.
            let headers = first.cells.map { table.columns[$0.column].header }
            for (cell, header) in zip(first.cells, headers) where !(header == "id_string" && headers.contains("form_id")) {
                values[table.columns[cell.column].name] = cell.value
            }
        }
        if let name = values["name"], !XMLName.isValid(name) {
            problems.append(FormProblem(
                sheet: "settings", row: 1,
                "The 'name' value '\(name)' is invalid: names begin with a letter or underscore, then letters, digits, underscores, hyphens or periods."
            ))
        }
        let cleansText = values["clean_text_values"].map { !["no", "false", "false()"].contains($0.lowercased()) } ?? true
        return (values, table, cleansText)
    }

    // MARK: - Choices

    private mutating func parseChoices(_ table: SheetTable?, allowsDuplicates: Bool) -> [String: ChoiceList] {
        guard let table else { return [:] }
        if !table.rows.allSatisfy(\.isEmpty), !table.columns.contains(where: { $0.name == "name" }) {
            problems.append(FormProblem(sheet: table.sheetName, "The sheet has no 'name' column."))
            return [:]
        }
        var lists: [String: ChoiceList] = [:]
        var order: [String] = []
        let listNameColumn = table.cells("list_name"), nameColumn = table.cells("name"), labelColumn = table.texts("label")
        let mediaColumns = MediaKind.allCases.map { ($0, table.texts("media::" + $0.rawValue)) }
        for row in table.rows {
            guard let listName = row[listNameColumn] else { continue }
            guard let name = row[nameColumn] else {
                problems.append(FormProblem(sheet: table.sheetName, row: row.number, "The choice has no name."))
                continue
            }
            var properties: [String: String] = [:]
            for cell in row.cells {
                let column = table.columns[cell.column]
                guard !["list_name", "name", "label"].contains(column.name), !column.name.hasPrefix("media::") else { continue }
                properties[column.header] = cell.value
            }
            var choice = Choice(name: name, label: row.translated(labelColumn), properties: properties, row: row.number)
            choice.media = row.media(mediaColumns)
            if lists[listName] == nil {
                lists[listName] = ChoiceList(name: listName, choices: [])
                order.append(listName)
            }
            lists[listName]!.choices.append(choice)
        }
        if !allowsDuplicates {
            for listName in order {
                var seen: Set<String> = []
                for choice in lists[listName]!.choices where !seen.insert(choice.name).inserted {
                    problems.append(FormProblem(
                        sheet: "choices", row: choice.row,
                        "The choice name '\(choice.name)' is already used in the list '\(listName)'. Choice names must be unique in each list."
                    ))
                }
            }
        }
        return lists
    }

    // MARK: - References

    /// Every `${name}` must name exactly one row of the survey sheet.
    private mutating func checkReferences(
        survey: SheetTable, choices: SheetTable?, settings: SheetTable?, entities: SheetTable?, names: [String: Int]
    ) {
        func check(_ table: SheetTable?, columns include: (SheetTable.Column) -> Bool) {
            guard let table else { return }
            let included = table.columns.map(include)
            for row in table.rows {
                for (column, value) in row.values.enumerated() where included[column] && value.includes("${") {
                    let header = table.columns[column].header
                    switch ReferenceScanner.references(in: value) {
                    case .failure:
                        problems.append(FormProblem(
                            sheet: table.sheetName, row: row.number,
                            "The '\(header)' value is invalid: a reference must be ${ followed by a question name and }."
                        ))
                    case .success(let referenced):
                        for name in referenced {
                            switch names[name] {
                            case nil:
                                problems.append(FormProblem(
                                    sheet: table.sheetName, row: row.number,
                                    "The '\(header)' value refers to ${\(name)}, but no question is named '\(name)'."
                                ))
                            case let count? where count > 1:
                                problems.append(FormProblem(
                                    sheet: table.sheetName, row: row.number,
                                    "The '\(header)' value refers to ${\(name)}, but '\(name)' names more than one question; a referenced name must be unique in the form."
                                ))
                            default:
                                break
                            }
                        }
                    }
                }
            }
        }
        check(settings) { _ in true }
        check(survey) { !["type", "name", "trigger"].contains($0.name) }
        check(choices) { $0.name == "label" || $0.name.hasPrefix("media::") }
        check(entities) { _ in true }
    }

    // MARK: - Languages

    /// The languages of every translated column with some text, sorted by code
    /// point, plus `default` when some row has a label without a language.
    static func languages(survey: SheetTable, choices: SheetTable?) -> [String] {
        var languages: Set<String> = []
        for table in [survey, choices].compactMap({ $0 }) {
            for index in table.columns.indices where table.isColumnUsed[index] && table.columns[index].isTranslatable {
                let column = table.columns[index]
                if let language = column.language {
                    languages.insert(language)
                } else if column.name == "label" {
                    languages.insert(FormDefinition.defaultLanguageName)
                }
            }
        }
        return languages.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    }
}

/// Finds the `${name}` references in a cell, as the reference converter reads
/// them: `${` must be followed by a name (optionally `last-saved#name`) and `}`.
enum ReferenceScanner {
    struct Malformed: Error {}

    static func references(in text: String) -> Result<[String], Malformed> {
        var text = text
        return text.withUTF8 { bytes in
            var names: [String] = []
            var index = 0
            while index + 1 < bytes.count {
                guard bytes[index] == UInt8(ascii: "$"), bytes[index + 1] == UInt8(ascii: "{") else {
                    index += 1
                    continue
                }
                let start = index + 2
                guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "}")) else { return .failure(Malformed()) }
                var name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                if name.hasPrefix("last-saved#") { name.removeFirst("last-saved#".count) }
                guard XMLName.isValid(name, allowsPrefix: false) else { return .failure(Malformed()) }
                names.append(name)
                index = end + 1
            }
            return .success(names)
        }
    }
}

/// XML names as XLSForm requires them of questions and choices' columns.
enum XMLName {
    /// Whether `name` starts with a letter or `_` and goes on with letters,
    /// digits, `_`, `-` and `.`; with `allowsPrefix`, one `prefix:` may lead.
    static func isValid(_ name: String, allowsPrefix: Bool = true) -> Bool {
        // Most names are plain ASCII: letters, digits, `_`, `-`, `.`.
        let utf8 = name.utf8
        if let first = utf8.first, utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: ":") }) {
            guard first == UInt8(ascii: "_") || isASCIILetter(first) else { return false }
            return utf8.allSatisfy {
                isASCIILetter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_")
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            }
        }
        let parts = name.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 1 || (allowsPrefix && parts.count == 2) else { return false }
        return parts.allSatisfy(isNCName)
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func isNCName(_ part: Substring) -> Bool {
        guard let first = part.unicodeScalars.first else { return false }
        guard first == "_" || first.properties.isAlphabetic else { return false }
        return part.unicodeScalars.dropFirst().allSatisfy { scalar in
            scalar == "_" || scalar == "-" || scalar == "." || scalar == "\u{B7}"
                || scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal
                || scalar.properties.generalCategory == .nonspacingMark
                || scalar.properties.generalCategory == .spacingMark
        }
    }
}
