import Foundation

/// An expression's view of the form, from the row it belongs to.
@MainActor
struct ScopeContext: @MainActor EvaluationContext {
    // Weak: the scope's own derived values hold their contexts, and a strong
    // reference back would keep a removed repeat instance alive. A state kept
    // after its scope went (a widget still bound to it) then reads nothing.
    weak var scope: FormScope?
    let owner: Int
    let current: () -> String

    func values(of name: String) -> [String] {
        scope?.values(of: name, from: owner) ?? []
    }

    var currentValue: String { current() }

    var position: Int? {
        guard let scope, scope.repeatEntry != nil else { return nil }
        return scope.position.value
    }

    func indexedRepeatValue(of name: String, repeat repeatName: String, index: Int) -> String? {
        guard let scope, let repeatState = scope.repeatState(named: repeatName, from: owner),
              repeatState.instances.value.indices.contains(index - 1),
              let target = scope.runtime.plan.entry(named: name, near: owner) else { return nil }
        return repeatState.instances.value[index - 1].scope.valuesBelow(target).first
    }

    func choiceLabel(of choice: String, question name: String) -> String? {
        guard let scope else { return nil }
        let plan = scope.runtime.plan
        guard let entry = plan.entry(named: name, near: owner),
              let found = plan.choiceList(ofEntry: entry)?.choices.first(where: { $0.name == choice }) else { return nil }
        return found.label.text(in: scope.runtime.language.value)
    }

    func secondaryInstance(_ id: String) -> SecondaryInstance? {
        scope?.runtime.plan.instances.byID[id]
    }

    func itext(_ id: String) -> String? {
        guard let scope else { return nil }
        return scope.runtime.plan.instances.itextText(id)?.text(in: scope.runtime.language.value)
    }

    /// Read from the runtime, not this context's copy of the environment:
    /// the last saved response may be known after the form started.
    func lastSavedValue(of name: String) -> String? {
        scope?.runtime.environment.lastSaved[name]
    }

    /// The XForm's root carries the form's `id` and, if set, its `version`.
    func rootAttribute(_ name: String) -> String? {
        guard let definition = scope?.runtime.plan.definition else { return nil }
        switch name {
        case "id": return definition.settings.id
        case "version": return definition.settings.version
        default: return nil
        }
    }

    func repeatInstances(of name: String) -> [ScopeContext]? {
        guard let scope, let entry = scope.runtime.plan.entry(named: name, near: owner),
              let instances = scope.instanceScopes(ofRepeat: entry, from: owner) else { return nil }
        // Each read as the repeat's own rows read the form: names inside it are that instance's.
        return instances.map { $0.context(for: entry, current: { "" }) }
    }

    let environment: FormEnvironment

    var now: Date { environment.now() }
    var timeZone: TimeZone { environment.timeZone }
}

/// A `choice_filter`'s view: the form as its row sees it, and the choice being
/// tried, whose columns (`name`, `label`, any other) bare names read.
@MainActor
struct ChoiceFilterContext: @MainActor EvaluationContext {
    let base: ScopeContext
    let choice: Choice

    func values(of name: String) -> [String] {
        base.values(of: name)
    }

    func pathValues(of name: String) -> [String] {
        // `../state` as `state`: a column first (a route's last name), else the form's.
        switch name.lastIndex(of: "/").map({ String(name[name.index(after: $0)...]) }) ?? name {
        case "name": [choice.name]
        case "label": [choice.label.text(in: base.scope?.runtime.language.value) ?? ""]
        case let column: choice.properties[column].map { [$0] } ?? base.values(of: name)
        }
    }

    var currentValue: String { choice.name }
    var position: Int? { base.position }
    func formPathValues(of name: String) -> [String] { base.formPathValues(of: name) }
    func secondaryInstance(_ id: String) -> SecondaryInstance? { base.secondaryInstance(id) }
    func itext(_ id: String) -> String? { base.itext(id) }
    func rootAttribute(_ name: String) -> String? { base.rootAttribute(name) }
    func lastSavedValue(of name: String) -> String? { base.lastSavedValue(of: name) }

    func indexedRepeatValue(of name: String, repeat repeatName: String, index: Int) -> String? {
        base.indexedRepeatValue(of: name, repeat: repeatName, index: index)
    }

    func choiceLabel(of choice: String, question name: String) -> String? {
        base.choiceLabel(of: choice, question: name)
    }

    var now: Date { base.now }
    var timeZone: TimeZone { base.timeZone }
}
