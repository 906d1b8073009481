/// A form's entity declaration compiled for running: the expressions that
/// give the `meta/entity` element's label and attributes.
struct PlannedEntity: Sendable {
    var declaration: EntityDeclaration
    /// The repeat whose instances each carry one, or `nil` for the response's.
    var repeatEntry: Int?
    var label: FormExpression?
    var entityID: FormExpression?
    var createIf: FormExpression?
    var updateIf: FormExpression?
    /// The updated entity's versions, read from the entity list's data file
    /// (`__version`, `__trunkVersion`, `__branchId`), as pyxform binds them.
    var baseVersion: FormExpression?
    var trunkVersion: FormExpression?
    var branchID: FormExpression?
}

extension FormPlan {
    /// Compiles the entities sheet's expressions, each declaration placed in
    /// the survey or its repeat; what cannot be placed is a problem naming its row.
    mutating func planEntities() {
        for declaration in definition.entities {
            var repeatEntry: Int?
            if let name = declaration.repeatName {
                guard let entry = entryByName[name], entries[entry].question.type == .repeatGroup else {
                    problems.append(FormProblem(
                        sheet: "entities", row: declaration.row,
                        "The entity list '\(declaration.dataset)' is declared in the repeat '\(name)', which the survey does not have."
                    ))
                    continue
                }
                repeatEntry = entry
            }
            func parse(_ text: String?, _ column: String) -> FormExpression? {
                guard let text else { return nil }
                do {
                    return try FormExpression(text)
                } catch {
                    problems.append(FormProblem(
                        sheet: "entities", row: declaration.row,
                        "The \(column) of the entity list '\(declaration.dataset)' cannot be read: \(error.message)."
                    ))
                    return nil
                }
            }
            var planned = PlannedEntity(
                declaration: declaration, repeatEntry: repeatEntry, label: parse(declaration.label, "label"), entityID: parse(declaration.entityID, "entity_id"),
                createIf: parse(declaration.createIf, "create_if"), updateIf: parse(declaration.updateIf, "update_if")
            )
            if let id = declaration.entityID, planned.entityID != nil {
                // pyxform's binds: the updated entity's row of the list.
                let item = "instance('\(declaration.dataset)')/root/item[name=\(id)]"
                planned.baseVersion = parse(item + "/__version", "entity_id")
                planned.trunkVersion = parse(item + "/__trunkVersion", "entity_id")
                planned.branchID = parse(item + "/__branchId", "entity_id")
            }
            entities.append(planned)
        }
    }
}
