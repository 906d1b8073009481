/// One row of the `entities` sheet: the entity a submitted response creates
/// in, or updates from, a server's entity list (ODK Central's datasets), as
/// the ODK XForms entities specification (2024.1.0) defines it and pyxform
/// writes it into the instance's `meta/entity`.
public struct EntityDeclaration: Sendable, Equatable {
    /// The entity list (`list_name`).
    public var dataset: String
    /// The entity's label: an expression, or `nil` (an update may keep its label).
    public var label: String?
    /// The id of the entity updated: an expression; `nil` for an entity created.
    public var entityID: String?
    /// When an entity is created: an expression, or `nil` for always (when creating).
    public var createIf: String?
    /// When the entity is updated: an expression, or `nil` for always (when updating).
    public var updateIf: String?
    /// The repeat the declaration lives in (the innermost repeat its
    /// references and `save_to` questions reach into, as pyxform places it;
    /// pyxform reads the `repeat` column and leaves it unused): an entity per
    /// instance; `nil` for one entity per response.
    public var repeatName: String?
    /// The entities sheet's row.
    public var row: Int

    /// Whether a response may create an entity: pyxform's create mode, with
    /// no id or with both an id and `create_if` (an upsert).
    public var creates: Bool { entityID == nil || createIf != nil }
    /// Whether a response may update the entity `entityID` names.
    public var updates: Bool { entityID != nil }
    /// Whether there is an entity per instance of a repeat.
    public var isInRepeat: Bool { repeatName != nil }
}

/// Reads the entities sheet and the survey's `save_to` column, refusing what
/// pyxform refuses, each problem naming its sheet and row.
struct EntitySheetParser {
    /// The entities sheet's columns.
    static let columns: Set<String> = ["dataset", "entity_id", "create_if", "update_if", "repeat", "label"]
    /// Their headers, in any case, → canonical name; `list_name` is `dataset`.
    static let aliases = Dictionary(uniqueKeysWithValues: columns.map { ($0, $0) }).merging(["list_name": "dataset"]) { $1 }

    var problems: [FormProblem] = []

    /// The declarations of `table` (nil when the form has none), given the
    /// survey's questions; `survey`'s `save_to` cells are checked against them.
    mutating func parse(_ table: SheetTable?, survey: SheetTable, questions: [Question]) -> [EntityDeclaration] {
        // Each question's innermost repeat, and how deep it lies.
        var enclosing: [String: (repeatName: String, depth: Int)] = [:]
        func visit(_ questions: [Question], _ around: (repeatName: String, depth: Int)?) {
            for question in questions {
                if let around { enclosing[question.name] = around }
                let inner = question.type == .repeatGroup ? (question.name, (around?.depth ?? 0) + 1) : around
                visit(question.children, inner)
            }
        }
        visit(questions, nil)

        var declarations: [EntityDeclaration] = []
        if let table {
            // A column is unknown once a row uses it, as pyxform reads rows.
            let unknown = table.columns.indices.filter { table.isColumnUsed[$0] && !Self.columns.contains(table.columns[$0].name) }
                .map { table.columns[$0] }
            if !unknown.isEmpty {
                problems.append(FormProblem(
                    sheet: "entities", row: 1,
                    "The column names \(unknown.map { "'\($0.header)'" }.joined(separator: ", ")) are not entities columns; the columns are list_name, label, entity_id, create_if, update_if and repeat."
                ))
                return []
            }
            let dataset = table.cells("dataset"), entityID = table.cells("entity_id"), createIf = table.cells("create_if")
            let updateIf = table.cells("update_if"), label = table.texts("label")
            let declaredRows = table.rows.filter { !$0.isEmpty }.count
            let savingQuestions = saveToQuestions(survey)
            for row in table.rows where !row.isEmpty {
                let declaration = EntityDeclaration(
                    dataset: row[dataset] ?? "", label: row.translated(label).text(in: nil), entityID: row[entityID],
                    createIf: row[createIf], updateIf: row[updateIf], repeatName: nil, row: row.number
                )
                guard check(declaration) else { continue }
                var references = [declaration.label, declaration.entityID, declaration.createIf, declaration.updateIf]
                    .compactMap { $0 }.flatMap { (try? ReferenceScanner.references(in: $0).get()) ?? [] }
                // A question saves to this list's entity: `list#property`, or
                // a bare `property` when the form declares one list.
                references += savingQuestions.filter { question in
                    question.saveTo.contains("#") ? question.saveTo.hasPrefix(declaration.dataset + "#") : declaredRows == 1
                }.map(\.name)
                var placed = declaration
                placed.repeatName = references.compactMap { enclosing[$0] }.max { $0.depth < $1.depth }?.repeatName
                declarations.append(placed)
            }
            // One entity per container: the survey's meta holds one, and each repeat's.
            var placed: [String: EntityDeclaration] = [:]
            for declaration in declarations {
                if let other = placed[declaration.repeatName ?? ""] {
                    let container = declaration.repeatName.map { "the repeat '\($0)'" } ?? "the survey"
                    problems.append(FormProblem(
                        sheet: "entities", row: declaration.row,
                        "The entity list '\(declaration.dataset)' cannot be declared in \(container): '\(other.dataset)' (row \(other.row)) is, and each survey, group or repeat holds one entity."
                    ))
                } else {
                    placed[declaration.repeatName ?? ""] = declaration
                }
            }
        }
        checkSaveTo(survey, hasEntities: table != nil)
        return declarations
    }

    /// pyxform's rules for one declaration: a usable list name, an id to
    /// update by, a label to create with.
    private mutating func check(_ declaration: EntityDeclaration) -> Bool {
        let row = declaration.row, name = declaration.dataset
        func refuse(_ column: String, _ message: String) -> Bool {
            problems.append(FormProblem(sheet: "entities", row: row, "The '\(column)' value is invalid. \(message)"))
            return false
        }
        if name.isEmpty { return refuse("list_name", "Entity lists must have a name.") }
        if name.hasPrefix("__") { return refuse("list_name", "Names used here must not begin with two underscores.") }
        if name.contains(".") { return refuse("list_name", "Names used here must not contain a period.") }
        if !XMLName.isValid(name) {
            return refuse("list_name", "Names must begin with a letter or underscore; after it, letters, digits, underscores, hyphens or periods.")
        }
        if declaration.entityID == nil, declaration.updateIf != nil {
            return refuse("update_if", "The entity list '\(name)' is updated by an 'entity_id', which this row does not give.")
        }
        if declaration.entityID != nil, declaration.createIf != nil, declaration.updateIf == nil {
            return refuse("create_if", "The entity list '\(name)' is updated by 'entity_id': creating as well needs an 'update_if' too.")
        }
        if declaration.entityID == nil, declaration.label == nil {
            return refuse("label", "The entity list '\(name)' creates entities, which need a 'label'.")
        }
        return true
    }

    /// The survey rows with a `save_to` cell, with their row and value.
    private func saveToQuestions(_ survey: SheetTable) -> [(name: String, row: Int, saveTo: String, type: String)] {
        let saveTo = survey.cells("save_to"), name = survey.cells("name"), type = survey.cells("type")
        return survey.rows.compactMap { row in
            guard let value = row[saveTo] else { return nil }
            return (row[name] ?? "", row.number, value, (row[type] ?? "").lowercased())
        }
    }

    /// pyxform's rules for `save_to`: only with an entities sheet, on a
    /// question, a usable property name, each property saved once.
    private mutating func checkSaveTo(_ survey: SheetTable, hasEntities: Bool) {
        var seen: [String: Int] = [:]
        for question in saveToQuestions(survey) {
            func refuse(_ message: String) {
                problems.append(FormProblem(sheet: "survey", row: question.row, "The 'save_to' value is invalid. \(message)"))
            }
            let property = String(question.saveTo.split(separator: "#", omittingEmptySubsequences: false).last ?? "")
            if !hasEntities {
                refuse("Saving to an entity property needs an entities sheet that declares the entity list.")
            } else if question.type.hasPrefix("begin") || question.type.hasPrefix("end") {
                refuse("A group or repeat cannot be saved to an entity property.")
            } else if ["name", "label"].contains(property.lowercased()) {
                refuse("Names used here must not be 'name' or 'label' (case-insensitive).")
            } else if property.hasPrefix("__") {
                refuse("Names used here must not begin with two underscores.")
            } else if !XMLName.isValid(property) {
                refuse("Names must begin with a letter or underscore; after it, letters, digits, underscores, hyphens or periods.")
            } else if let other = seen[question.saveTo] {
                refuse("The property '\(property)' is already saved from row \(other).")
            } else {
                seen[question.saveTo] = question.row
            }
        }
    }
}
