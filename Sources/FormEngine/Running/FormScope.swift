import Foundation
import TwoWayBinding

/// What every scope of one running form shares.
@MainActor
final class FormRuntime {
    let plan: FormPlan
    /// The device's and user's details; the device id may come late (`FormViewModel.provide(deviceID:)`).
    var environment: FormEnvironment
    let language: Observable<String?>
    /// Bumped when the last saved response becomes known: what reads it
    /// (`${last-saved#…}`) is computed again.
    let lastSavedRevision = Observable(0)
    /// Rows whose answers are refused now; the form is valid when empty.
    let invalidCount = Observable(0)
    private var invalid: Set<ObjectIdentifier> = []
    /// Repeat instances alive in the form, nested ones included, against
    /// `FormLimits.repeatInstances`.
    var repeatInstances = 0
    /// Undo and redo of the respondent's answers, in every scope.
    let history = EditHistory()
    /// Choice lists indexed by a column a `choice_filter` compares, by entry.
    private var choiceIndexes: [Int: ChoiceIndex] = [:]

    /// The index of `list` (entry `entry`'s) by `field`, built once; nil
    /// without a field, or when some choice lacks the column (the filter
    /// then reads a question of that name, which no index holds).
    func choiceIndex(of list: ChoiceList, entry: Int, by field: String?) -> ChoiceIndex? {
        guard let field, field != "label" else { return nil }
        if let known = choiceIndexes[entry] { return known }
        guard let index = ChoiceIndex(list, field: field) else { return nil }
        choiceIndexes[entry] = index
        return index
    }

    init(plan: FormPlan, environment: FormEnvironment, language: String?) {
        self.plan = plan
        self.environment = environment
        self.language = Observable(language)
    }

    func setInvalid(_ state: QuestionState, _ isInvalid: Bool) {
        let id = ObjectIdentifier(state)
        let changed = isInvalid ? invalid.insert(id).inserted : invalid.remove(id) != nil
        if changed { invalidCount.value = invalid.count }
    }
}

/// The answers of the survey itself or of one repeat instance, built in the
/// plan's order so that every derived value is made after what it reads.
@MainActor
final class FormScope {
    /// Answers typed (or stepped, or picked a day at a time): a run of
    /// changes to one is one undo step, as in a text editor; a choice is a step.
    private static let typedAnswers: Set<QuestionType> = [.text, .integer, .decimal, .date, .time, .dateTime]

    let runtime: FormRuntime
    /// The repeat this scope is an instance of, or `nil` for the survey.
    let repeatEntry: Int?
    private(set) weak var parent: FormScope?
    /// 1-based position among the repeat's instances.
    let position: Observable<Int>

    private var relevance: [Int: ObservableBool] = [:]
    private var sources: [Int: (node: ObservableNode, read: () -> String)] = [:]
    private var values: [Int: Observable<String>] = [:]
    private(set) var states: [Int: QuestionState] = [:]
    private(set) var repeats: [Int: RepeatState] = [:]
    private var tokens: [ObservationToken] = []
    /// Derived values nothing else holds (a repeat's count, a question's
    /// calculation): the dependency graph keeps its nodes only weakly.
    private var retained: [AnyObject] = []

    private var plan: FormPlan { runtime.plan }

    init(runtime: FormRuntime, repeatEntry: Int?, parent: FormScope?, position: Int) {
        self.runtime = runtime
        self.repeatEntry = repeatEntry
        self.parent = parent
        self.position = Observable(position)
    }

    // MARK: - Reading

    /// The states of this scope's rows in form order.
    var orderedStates: [QuestionState] {
        (plan.members[repeatEntry] ?? []).compactMap { states[$0] }
    }

    /// Every state of this scope and of the repeat instances inside it.
    var allStates: [QuestionState] {
        orderedStates + repeats.values.flatMap { $0.instances.value.flatMap { $0.scope.allStates } }
    }

    func state(named name: String) -> QuestionState? {
        guard let index = plan.entryByName[name] else { return nil }
        return states[index]
    }

    /// The scope holding rows of `scopeEntry` (the survey for `nil`), going
    /// outward from here.
    private func scope(for scopeEntry: Int?) -> FormScope? {
        var candidate: FormScope? = self
        while let scope = candidate {
            if scope.repeatEntry == scopeEntry { return scope }
            candidate = scope.parent
        }
        return nil
    }

    /// The value of row `target` as expressions see it: empty while it is not relevant.
    private func read(_ target: Int) -> String {
        guard let holder = scope(for: plan.entries[target].scope) else { return "" }
        if let relevant = holder.relevance[target], !relevant.value { return "" }
        return holder.sources[target]?.read() ?? ""
    }

    /// What `${name}` selects for an expression of row `owner`.
    func values(of name: String, from owner: Int) -> [String] {
        switch plan.resolve(name, from: owner) {
        case .single(let target):
            return [read(target)]
        case .inRepeat(let repeatEntry, let target):
            guard let holder = scope(for: plan.entries[repeatEntry].scope),
                  let repeatState = holder.repeats[repeatEntry] else { return [] }
            if let relevant = holder.relevance[repeatEntry], !relevant.value { return [] }
            return repeatState.values(of: target)
        case .unknown:
            return []
        }
    }

    /// The instances' scopes of repeat `entry` as an expression of row `owner` reaches them
    /// (none while the repeat is not relevant), or nil unless `entry` is a repeat the row is
    /// outside of, just inside the row's own scope.
    func instanceScopes(ofRepeat entry: Int, from owner: Int) -> [FormScope]? {
        guard plan.entries[entry].question.type == .repeatGroup,
              case .inRepeat(let repeatEntry, _) = plan.resolve(plan.entries[entry].question.name, from: owner),
              repeatEntry == entry,
              let holder = scope(for: plan.entries[entry].scope), let repeatState = holder.repeats[entry]
        else { return nil }
        if let relevant = holder.relevance[entry], !relevant.value { return [] }
        return repeatState.instances.value.map(\.scope)
    }

    /// Row `target`'s relevant values in this scope or its repeats' instances.
    func valuesBelow(_ target: Int) -> [String] {
        if target == repeatEntry { return [""] }
        if plan.entries[target].scope == repeatEntry { return [read(target)] }
        for (entry, repeatState) in repeats where plan.entries[target].repeatChain.contains(entry) {
            if let relevant = relevance[entry], !relevant.value { return [] }
            return repeatState.values(of: target)
        }
        return []
    }

    /// The nodes `expression` of row `owner` must depend on: what it reads,
    /// and the instance's position when it asks for it.
    func dependencies(of expression: FormExpression, from owner: Int) -> [ObservableNode] {
        var nodes = dependencies(expression.readNames, from: owner)
        if repeatEntry != nil, expression.source.contains("position") { nodes.append(position) }
        if expression.readsLanguage { nodes.append(runtime.language) }
        if expression.readsLastSaved { nodes.append(runtime.lastSavedRevision) }
        return nodes
    }

    /// The nodes an expression of row `owner` must depend on to see `names` change.
    func dependencies(_ names: [String], from owner: Int) -> [ObservableNode] {
        var nodes: [ObservableNode] = []
        for name in names {
            switch plan.resolve(name, from: owner) {
            case .single(let target):
                guard let holder = scope(for: plan.entries[target].scope) else { continue }
                if let node = holder.sources[target]?.node { nodes.append(node) }
                if let node = holder.relevance[target]?.node { nodes.append(node) }
            case .inRepeat(let repeatEntry, _):
                guard let holder = scope(for: plan.entries[repeatEntry].scope),
                      let repeatState = holder.repeats[repeatEntry] else { continue }
                nodes.append(repeatState.revision)
                if let node = holder.relevance[repeatEntry]?.node { nodes.append(node) }
            case .unknown:
                continue
            }
        }
        return nodes
    }

    func context(for owner: Int, current: @escaping () -> String) -> ScopeContext {
        ScopeContext(scope: self, owner: owner, current: current, environment: runtime.environment)
    }

    func repeatState(named name: String, from owner: Int) -> RepeatState? {
        guard let entry = plan.entry(named: name, near: owner), plan.entries[entry].question.type == .repeatGroup,
              let holder = scope(for: plan.entries[entry].scope) else { return nil }
        return holder.repeats[entry]
    }

    // MARK: - Building

    /// Makes every node of this scope in the plan's order, then the states,
    /// then the first instances of the repeats inside.
    func build() {
        let members = plan.members[repeatEntry] ?? []
        for index in members where plan.entries[index].question.type == .repeatGroup {
            let entry = plan.entries[index]
            repeats[index] = RepeatState(
                question: entry.question, entry: index, owner: self, isCountFixed: entry.question.repeatCount != nil
            )
        }
        for step in plan.steps[repeatEntry] ?? [] {
            switch step {
            case .relevance(let index): makeRelevance(index)
            case .value(let index): makeValue(index)
            }
        }
        for index in members { makeState(index) }
        applyDefaults(members)
        followCalculations(members)
        for index in members { startRepeat(index) }
    }

    private func makeRelevance(_ index: Int) {
        let entry = plan.entries[index]
        let inherited: ObservableBool? = if let parent = entry.parent {
            parent == repeatEntry ? self.parent?.relevance[parent] : relevance[parent]
        } else {
            nil
        }
        guard let expression = entry.relevant else {
            relevance[index] = inherited ?? .constant(true)
            return
        }
        let context = context(for: index) { [unowned self] in self.sources[index]?.read() ?? "" }
        var inputs = dependencies(of: expression, from: index)
        if let node = inherited?.node { inputs.append(node) }
        relevance[index] = .derived(Derived(from: inputs) {
            (inherited?.value ?? true) && expression.evaluate(in: context).booleanValue
        })
    }

    private func makeValue(_ index: Int) {
        let entry = plan.entries[index]
        let value = Observable(initialValue(entry, index: index))
        values[index] = value
        if entry.question.type == .calculate, let expression = entry.calculation, entry.triggers.isEmpty {
            let box = CurrentValue()
            let context = context(for: index) { box.value }
            let derived = Derived(from: dependencies(of: expression, from: index)) {
                let result = expression.evaluate(in: context).stringValue
                box.value = result
                return result
            }
            value.value = derived.value
            tokens.append(derived.observe { value.value = $0 })
            sources[index] = (derived, { derived.value })
        } else {
            sources[index] = (value, { value.value })
        }
    }

    /// A calculation with a `trigger` is computed when a trigger's value
    /// changes, and only then (ODK's setvalue on xforms-value-changed):
    /// until the first change it holds its default, and between changes
    /// whatever it was set to.
    private func followTriggers(_ triggers: [FormExpression], of index: Int, recomputing expression: FormExpression, into value: Observable<String>) {
        let context = context(for: index) { value.value }
        for trigger in triggers {
            let triggerContext = self.context(for: index) { "" }
            let watched = Derived(from: dependencies(of: trigger, from: index)) { trigger.evaluate(in: triggerContext).stringValue }
            retained.append(watched)
            tokens.append(watched.observeChange { value.value = expression.evaluate(in: context).stringValue })
        }
    }

    /// A question that is asked and also calculated takes the calculation's
    /// result whenever what it reads changes, as ODK Collect does; the
    /// respondent may change it until then.
    private func followCalculations(_ members: [Int]) {
        for index in members {
            let entry = plan.entries[index]
            guard let expression = entry.calculation, let value = values[index] else { continue }
            guard entry.triggers.isEmpty else {
                followTriggers(entry.triggers, of: index, recomputing: expression, into: value)
                continue
            }
            guard entry.question.type != .calculate else { continue }
            let context = context(for: index) { value.value }
            let derived = Derived(from: dependencies(of: expression, from: index)) {
                expression.evaluate(in: context).stringValue
            }
            retained.append(derived)
            value.value = derived.value
            tokens.append(derived.observe { value.value = $0 })
        }
    }

    private func initialValue(_ entry: FormPlan.Entry, index: Int) -> String {
        let environment = runtime.environment
        switch entry.question.type {
        case .start: return FormClock.now.evaluate(in: context(for: index) { "" }).stringValue
        case .today: return FormClock.today.evaluate(in: context(for: index) { "" }).stringValue
        default:
            if let metadata = environment.metadataValue(entry.question.type) { return metadata }
        }
        if entry.dynamicDefault == nil, let literal = entry.question.defaultValue { return literal }
        return ""
    }

    /// The defaults that read the last saved response (`${last-saved#…}`),
    /// here and in the repeat instances inside, that still hold the value
    /// they gave (no one changed it): each as a step giving it again, to take
    /// once the last saved response is known.
    func lastSavedDefaultsAsGiven() -> [() -> Void] {
        var steps: [() -> Void] = []
        for index in plan.members[repeatEntry] ?? [] {
            let entry = plan.entries[index]
            if let expression = entry.dynamicDefault, expression.readsLastSaved, entry.question.type != .calculate,
               let value = values[index] {
                let context = context(for: index) { value.value }
                if value.value == expression.evaluate(in: context).stringValue {
                    steps.append { value.value = expression.evaluate(in: context).stringValue }
                }
            }
            for instance in repeats[index]?.instances.value ?? [] { steps += instance.scope.lastSavedDefaultsAsGiven() }
        }
        return steps
    }

    private func applyDefaults(_ members: [Int]) {
        for index in members {
            let entry = plan.entries[index]
            guard let expression = entry.dynamicDefault, entry.question.type != .calculate,
                  let value = values[index] else { continue }
            value.value = expression.evaluate(in: context(for: index) { value.value }).stringValue
        }
    }

    private func makeState(_ index: Int) {
        let entry = plan.entries[index]
        let question = entry.question
        let value = values[index] ?? Observable("")
        let source = sources[index] ?? (value, { value.value })
        let isRelevant = relevance[index] ?? .constant(true)
        let language = runtime.language
        let context = context(for: index) { value.value }

        func condition(_ expression: FormExpression?, fixed: Condition) -> ObservableBool {
            guard let expression else { return .constant(fixed == .yes) }
            return .derived(Derived(from: dependencies(of: expression, from: index)) {
                expression.evaluate(in: context).booleanValue
            })
        }
        let isRequired = condition(entry.required, fixed: question.required)
        let isReadOnly = condition(entry.readOnly, fixed: question.readOnly)

        var validationInputs: [ObservableNode] = [value, language]
        if source.node !== value { validationInputs.append(source.node) }
        validationInputs += [isRelevant.node, isRequired.node].compactMap { $0 }
        if let constraint = entry.constraint {
            validationInputs += dependencies(of: constraint, from: index)
        }
        // Messages may name answers (`${problem}`), filled in as labels are.
        let messageNames = Self.names(in: question.constraintMessage, among: entry.textReferences)
            + Self.names(in: question.requiredMessage, among: entry.textReferences)
        validationInputs += dependencies(messageNames, from: index)
        let constraintProblem = { [unowned self] () -> String in
            let message = question.constraintMessage.text(in: language.value)
            return message.map { filledIn($0, names: messageNames, owner: index) } ?? FormMessages.constraint
        }
        let inputError = Observable<FieldValidation>(.valid)
        validationInputs.append(inputError)
        let validation = Derived(from: validationInputs) { [unowned self] () -> FieldValidation in
            guard isRelevant.value, question.type.isAnswerable else { return .valid }
            if !inputError.value.isValid { return inputError.value }
            let answer = value.value
            if answer.isEmpty {
                guard isRequired.value else { return .valid }
                let message = question.requiredMessage.text(in: language.value)
                return .invalid(message.map { filledIn($0, names: messageNames, owner: index) } ?? FormMessages.required)
            }
            if let problem = FormMessages.typeProblem(answer, for: question.type) { return .invalid(problem) }
            if let constraint = entry.constraint, !constraint.evaluate(in: context).booleanValue {
                return .invalid(constraintProblem())
            }
            return .valid
        }

        let label = formatted(text(question.label, references: entry.textReferences, owner: index))
        let hint = formatted(text(question.hint, references: entry.textReferences, owner: index))
        var readout: Derived<String>?
        if !question.readout.isEmpty {
            let filled = text(question.readout, references: entry.textReferences, owner: index)
            readout = Derived(from: [filled, value]) { value.value.isEmpty ? "" : filled.value }
        }
        let choices = choiceList(entry, owner: index)
        if entry.choiceFilter != nil || entry.search != nil, let choices {
            // As JavaRosa does: a choice the filter no longer offers is no
            // longer part of the answer.
            // A rank's answer lists its choices as a select_multiple's does.
            let multiple = question.type.isSelectMultiple
            tokens.append(choices.observe { [unowned value] offered in
                let kept = Self.answer(value.value, keepingOnly: offered, multiple: multiple)
                if kept != value.value { value.value = kept }
            })
        }

        let state = QuestionState(
            question: question, value: value, source: source.node, readSource: source.read,
            isRelevant: isRelevant, isRequired: isRequired, isReadOnly: isReadOnly,
            validation: validation, label: label, hint: hint, readout: readout, choices: choices,
            repeatState: repeats[index], inputError: inputError, constraintProblem: constraintProblem
        )
        states[index] = state
        let runtime = runtime
        if question.type.isAnswerable, question.type != .hidden {
            tokens.append(runtime.history.track(value, coalescing: Self.typedAnswers.contains(question.type)))
        }
        runtime.setInvalid(state, !validation.value.isValid)
        tokens.append(validation.observe { [unowned state] verdict in runtime.setInvalid(state, !verdict.isValid) })
    }

    /// A label or hint in the current language, with `${name}` filled in.
    private func text(_ text: TranslatedText, references: [String], owner: Int) -> Derived<String> {
        let language = runtime.language
        guard !text.isEmpty else { return Derived(from: []) { "" } }
        let names = Self.names(in: text, among: references)
        return Derived(from: [language] + dependencies(names, from: owner)) { [unowned self] in
            filledIn(text.text(in: language.value) ?? "", names: names, owner: owner)
        }
    }

    /// `text` read as ODK's Markdown and HTML subset.
    private func formatted(_ text: Derived<String>) -> Derived<FormattedText> {
        Derived(from: [text]) { FormattedText(parsing: text.value) }
    }

    /// The `references` that occur in some language of `text`.
    private static func names(in text: TranslatedText, among references: [String]) -> [String] {
        references.filter { name in text.byLanguage.values.contains { $0.includes("${\(name)}") } }
    }

    /// `text` with each `${name}` of `names` replaced by that answer, as
    /// expressions of row `owner` see it.
    private func filledIn(_ text: String, names: [String], owner: Int) -> String {
        var result = text
        for name in names where result.includes("${\(name)}") {
            var value = values(of: name, from: owner).first ?? ""
            if let entry = plan.entry(named: name, near: owner) {
                value = runtime.environment.notation.shown(value, for: plan.entries[entry].question)
            }
            result = result.replacingOccurrences(of: "${\(name)}", with: value)
        }
        return result
    }

    /// `answer` without the choices `offered` lacks.
    private static func answer(_ answer: String, keepingOnly offered: [Choice], multiple: Bool) -> String {
        guard !answer.isEmpty else { return answer }
        guard multiple else { return offered.contains { $0.name == answer } ? answer : "" }
        let names = answer.split(separator: " ")
        let kept = names.filter { name in offered.contains { $0.name == name } }
        return kept.count == names.count ? answer : kept.joined(separator: " ")
    }

    private func choiceList(_ entry: FormPlan.Entry, owner: Int) -> Derived<[Choice]>? {
        offeredChoices(entry, owner: owner).map { arranged($0, entry: entry, owner: owner) }
    }

    /// `offered` as the select shows them: `${name}` in their labels filled
    /// in, and shuffled when the select asks (`randomize`), after filtering
    /// as pyxform's `randomize()` itemset does. Without a `seed`, one
    /// order is drawn for the response.
    private func arranged(_ offered: Derived<[Choice]>, entry: FormPlan.Entry, owner: Int) -> Derived<[Choice]> {
        let names = entry.choiceLabelReferences
        let randomizes = entry.question.randomizesChoices
        guard !names.isEmpty || randomizes else { return offered }
        let seed = entry.choiceSeed
        var nodes: [ObservableNode] = [offered] + dependencies(names, from: owner)
        if let seed { nodes += dependencies(of: seed, from: owner) }
        let drawnSeed = Double(Int.random(in: 1..<2_147_483_647))
        return Derived(from: nodes) { [unowned self] in
            var choices = offered.value
            if !names.isEmpty {
                choices = choices.map { choice in
                    var filled = choice
                    filled.label = TranslatedText(choice.label.byLanguage.mapValues { filledIn($0, names: names, owner: owner) })
                    return filled
                }
            }
            if randomizes {
                let seedValue = seed.map { $0.evaluate(in: context(for: owner) { "" }).numberValue } ?? drawnSeed
                choices = seededShuffle(choices, seed: seedValue)
            }
            return choices
        }
    }

    /// The choices a select offers now: its list (or a repeat's answers)
    /// narrowed by its `choice_filter`.
    private func offeredChoices(_ entry: FormPlan.Entry, owner: Int) -> Derived<[Choice]>? {
        guard entry.question.type.isSelect, let listName = entry.question.listName else { return nil }
        if let answers = answersOfRepeat(listName, entry: entry, owner: owner) { return answers }
        guard let list = plan.choiceList(ofEntry: owner) else { return nil }
        if let search = entry.search { return searched(list, by: search, entry: entry, owner: owner) }
        guard let filter = entry.choiceFilter else { return Derived(from: []) { list.choices } }
        let index = runtime.choiceIndex(of: list, entry: owner, by: filter.indexedEquality?.field)
        return Derived(from: [runtime.language] + dependencies(of: filter, from: owner)) { [unowned self] in
            let base = context(for: owner) { "" }
            // `field = value`: only the choices with that value are tried.
            let candidates = index.flatMap { index in filter.indexedValue(in: base).flatMap { index.choices(equalTo: $0) } }
            return (candidates ?? list.choices).filter { choice in
                filter.evaluate(in: ChoiceFilterContext(base: base, choice: choice)).booleanValue
            }
        }
    }

    /// A `search()` select's rows of its file that the search admits now
    /// (and its `choice_filter`, if it has one).
    private func searched(_ list: ChoiceList, by search: ExternalSearch, entry: FormPlan.Entry, owner: Int) -> Derived<[Choice]> {
        let filter = entry.choiceFilter
        var nodes: [ObservableNode] = []
        for expression in search.expressions + [filter].compactMap({ $0 }) { nodes += dependencies(of: expression, from: owner) }
        let folded = search.foldedColumns(of: list.choices)
        return Derived(from: nodes) { [unowned self] in
            let base = context(for: owner) { "" }
            let needle = (search.value?.evaluate(in: base).stringValue ?? "").lowercased()
            let filtered = search.filterValue?.evaluate(in: base).stringValue
            return zip(list.choices, folded).compactMap { choice, folded in
                guard search.admits(choice, folded: folded, needle: needle, filtered: filtered),
                      filter?.evaluate(in: ChoiceFilterContext(base: base, choice: choice)).booleanValue ?? true
                else { return nil }
                return choice
            }
        }
    }

    /// `select_one ${name}` where `name` is a question in a repeat: one
    /// choice per instance that answered it (the answer both its name and
    /// its label), as pyxform's itemset over the repeat; a `choice_filter`
    /// is evaluated in each instance (`position()` is the instance's).
    private func answersOfRepeat(_ listName: String, entry: FormPlan.Entry, owner: Int) -> Derived<[Choice]>? {
        guard listName.hasPrefix("${"), listName.hasSuffix("}"),
              let target = plan.entry(named: String(listName.dropFirst(2).dropLast()), near: owner),
              let repeatEntry = plan.entries[target].scope else { return nil }
        let filter = entry.choiceFilter
        var nodes = dependencies([plan.entries[target].question.name], from: owner)
        if let filter { nodes += dependencies(of: filter, from: owner) }
        return Derived(from: nodes) { [unowned self] in
            guard let instances = instanceScopes(ofRepeat: repeatEntry, from: owner) else { return [] }
            return instances.compactMap { instance in
                guard let answer = instance.valuesBelow(target).first, !answer.isEmpty else { return nil }
                if let filter, !filter.evaluate(in: instance.context(for: target) { answer }).booleanValue { return nil }
                return Choice(name: answer, label: TranslatedText([FormDefinition.defaultLanguageName: answer]), properties: [:], row: 0)
            }
        }
    }

    private func startRepeat(_ index: Int) {
        guard let repeatState = repeats[index] else { return }
        let entry = plan.entries[index]
        guard let countExpression = entry.repeatCount else {
            _ = repeatState.append()
            return
        }
        let context = context(for: index) { "" }
        let count = Derived(from: dependencies(of: countExpression, from: index)) {
            let number = countExpression.evaluate(in: context).numberValue
            // Clamped before converting: a typed 9223372036854775807 is past Int's range as a Double.
            return number.isFinite ? Int(min(max(number.rounded(.down), 0), Double(FormLimits.repeatInstances))) : 0
        }
        retained.append(count)
        repeatState.setCount(count.value)
        tokens.append(count.observe { [unowned repeatState] in repeatState.setCount($0) })
    }

    /// The repeat instances inside this scope, at any depth.
    var nestedInstanceCount: Int {
        repeats.values.reduce(0) { total, repeatState in
            total + repeatState.instances.value.reduce(repeatState.instances.value.count) { $0 + $1.scope.nestedInstanceCount }
        }
    }

    /// Forgets this scope's answers in the form's verdict; its nodes go with it.
    func tearDown() {
        for state in allStates { runtime.setInvalid(state, false) }
        tokens.removeAll()
        for repeatState in repeats.values {
            for instance in repeatState.instances.value { instance.scope.tearDown() }
        }
    }
}

/// The clock's readings as a form stores them, through the expression
/// language so that `start` reads like `now()` and `today` like `today()`.
enum FormClock {
    // NB: both parse; a failure here is a bug in the expression parser.
    static let now = try! FormExpression("now()")
    static let today = try! FormExpression("today()")
}

/// A `calculate` row's last value, which `.` and `once()` read while the
/// calculation runs again.
private final class CurrentValue {
    var value = ""
}
