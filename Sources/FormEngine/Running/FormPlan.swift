/// A form compiled for running: each row's expressions parsed, where each row
/// lives (the survey or a repeat), and in what order each scope's values and
/// relevance must be built so that every one is built after what it reads.
///
/// Made once per form; every `FormViewModel` and repeat instance of the form
/// shares it. Making it finds what the form's file cannot show: expressions
/// that do not parse, calculations that depend on themselves, and types the
/// engine cannot collect.
///
/// Making a plan needs no main thread: an app makes it where it read the
/// form, off the window's thread, and starts a `FormViewModel` from it.
public struct FormPlan: Sendable {
    struct Entry: Sendable {
        var question: Question
        /// The enclosing group or repeat, if any.
        var parent: Int?
        /// The innermost enclosing repeat, if any: the scope the row lives in.
        var scope: Int?
        /// The enclosing repeats, outermost first.
        var repeatChain: [Int]
        var relevant: FormExpression?
        var constraint: FormExpression?
        var calculation: FormExpression?
        var required: FormExpression?
        var readOnly: FormExpression?
        var choiceFilter: FormExpression?
        var repeatCount: FormExpression?
        /// `default` when it is an expression rather than a literal.
        var dynamicDefault: FormExpression?
        /// `${name}` references in the label, hint, messages and readout, any language.
        var textReferences: [String]
        /// The questions whose changes alone recompute the calculation, each
        /// as an expression reading it; empty: it follows what it reads.
        var triggers: [FormExpression] = []
        /// A select's `seed` parameter, when its choices are shuffled by one.
        var choiceSeed: FormExpression?
        /// `${name}` references in the labels of the select's choice list.
        var choiceLabelReferences: [String] = []
        /// A select's `search()` appearance: its choices a CSV file's rows.
        var search: ExternalSearch?
    }

    /// One thing to build in a scope: a row's relevance or its value.
    enum Step: Sendable, Hashable {
        case relevance(Int)
        case value(Int)
    }

    /// The form planned.
    public internal(set) var definition: FormDefinition
    var entries: [Entry]
    /// Referenced names → entry. pyxform guarantees a `${}` name is unique;
    /// a name several rows share is in `entriesSharingName` too.
    var entryByName: [String: Int]
    /// Names several rows carry (a loop's copies of one row, each in its
    /// choice's group) → those rows: a reference from one copy reads its own
    /// group's, as pyxform's relative paths do (`selected(../fav, 'other')`).
    var entriesSharingName: [String: [Int]] = [:]
    /// Per scope (`nil` for the survey, else the repeat's entry), the build order.
    var steps: [Int?: [Step]]
    /// Per scope, its rows in form order.
    var members: [Int?: [Int]]
    /// What keeps the form from running, each naming its row; empty when it can run.
    public internal(set) var problems: [FormProblem]

    /// Its choice lists and data files, as `instance()` reads them.
    var instances = FormInstances()
    /// The entities a response creates or updates, compiled.
    var entities: [PlannedEntity] = []

    /// Plans `definition`, finding what keeps it from running; the data files
    /// it names are read from `media` (a missing one is a problem).
    public init(_ definition: FormDefinition, media: FormMedia = .none) {
        self.definition = definition
        entries = []
        entryByName = [:]
        steps = [:]
        members = [:]
        problems = []

        let labelReferences = Self.labelReferences(in: definition.choiceLists)
        func add(_ questions: [Question], parent: Int?, scope: Int?, chain: [Int]) {
            for question in questions {
                let index = entries.count
                entries.append(Entry(
                    question: question, parent: parent, scope: scope, repeatChain: chain,
                    textReferences: Self.textReferences(question),
                    choiceLabelReferences: question.listName.map { labelReferences[$0] ?? [] } ?? []
                ))
                members[scope, default: []].append(index)
                if let earlier = entryByName[question.name] {
                    entriesSharingName[question.name, default: [earlier]].append(index)
                }
                entryByName[question.name] = index
                if question.type == .repeatGroup {
                    members[index] = []
                    add(question.children, parent: index, scope: index, chain: chain + [index])
                } else if question.type == .group {
                    add(question.children, parent: index, scope: scope, chain: chain)
                }
            }
        }
        add(definition.questions, parent: nil, scope: nil, chain: [])

        for index in entries.indices {
            parseExpressions(index)
            let type = entries[index].question.type
            if !type.isCollectable, !type.isSelect {
                let question = entries[index].question
                problems.append(FormProblem(
                    sheet: "survey", row: question.row,
                    "'\(question.name)' is a \(type.name) question, which Survey Form cannot collect."
                ))
            }
        }
        orderSteps()
        planEntities()
        makeInstances(media: media)
    }

    private static func textReferences(_ question: Question) -> [String] {
        var names: [String] = []
        let texts = [question.label, question.hint, question.constraintMessage, question.requiredMessage, question.readout]
        for text in texts.flatMap({ Array($0.byLanguage.values) }) {
            if case .success(let found) = ReferenceScanner.references(in: text) {
                for name in found where !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// The `${name}` references in each choice list's labels, by list name;
    /// lists without any are left out.
    private static func labelReferences(in lists: [String: ChoiceList]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for (name, list) in lists {
            var names: [String] = []
            for choice in list.choices {
                for text in choice.label.byLanguage.values where text.contains("${") {
                    guard case .success(let found) = ReferenceScanner.references(in: text) else { continue }
                    for reference in found where !names.contains(reference) { names.append(reference) }
                }
            }
            if !names.isEmpty { result[name] = names }
        }
        return result
    }

    private mutating func parseExpressions(_ index: Int) {
        let question = entries[index].question
        func parse(_ text: String?, _ column: String) -> FormExpression? {
            guard let text else { return nil }
            do {
                return try FormExpression(text)
            } catch {
                problems.append(FormProblem(
                    sheet: "survey", row: question.row,
                    "The \(column) of '\(question.name)' cannot be read: \(error.message)."
                ))
                return nil
            }
        }
        func condition(_ condition: Condition, _ column: String) -> FormExpression? {
            guard case .expression(let text) = condition else { return nil }
            return parse(text, column)
        }
        entries[index].relevant = parse(question.relevant, "relevant")
        entries[index].constraint = parse(question.effectiveConstraint, "constraint")
        entries[index].calculation = parse(question.calculation, "calculation")
        entries[index].required = condition(question.required, "required")
        entries[index].readOnly = condition(question.readOnly, "read_only")
        entries[index].choiceFilter = parse(question.choiceFilter, "choice_filter")
        entries[index].repeatCount = parse(question.repeatCount, "repeat_count")
        if question.type.isSelect, question.randomizesChoices {
            entries[index].choiceSeed = parse(question.parameters["seed"], "seed parameter")
        }
        if let trigger = question.trigger, case .success(let names) = ReferenceScanner.references(in: trigger) {
            entries[index].triggers = names.compactMap { parse("${\($0)}", "trigger") }
        }
        if let value = question.defaultValue, Self.isDynamic(value) {
            entries[index].dynamicDefault = parse(value, "default")
        }
        if question.type == .selectOne || question.type == .selectMultiple, let call = question.searchCall {
            do {
                entries[index].search = try ExternalSearch(call)
            } catch {
                problems.append(FormProblem(
                    sheet: "survey", row: question.row, "The appearance's \(call) of '\(question.name)' cannot be read: \(error.message)."
                ))
            }
        }
    }

    /// Whether a `default` is an expression (a reference or a function call)
    /// rather than a literal answer such as `yes` or `2024-01-31`.
    static func isDynamic(_ value: String) -> Bool {
        if value.contains("${") { return true }
        var previousIsName = false
        for character in value {
            if character == "(", previousIsName { return true }
            previousIsName = character.isLetter || character.isNumber || character == "-" || character == "_"
        }
        return false
    }

    // MARK: - Build order

    /// The scope a name is read from when an expression in `scope` reads it:
    /// the same scope or an enclosing one (one value), or a repeat below (many).
    enum Resolution: Equatable {
        case single(Int)
        case inRepeat(repeatEntry: Int, target: Int)
        case unknown
    }

    /// The row `name` means where row `owner` reads it: of several rows so
    /// named, the one a path's route leads to (`/a/x`, `../../a/x`, as
    /// `LocationStep.formKey` makes them), else the one whose path shares
    /// most with the owner's.
    func entry(named name: String, near owner: Int) -> Int? {
        guard let slash = name.lastIndex(of: "/") else { return entry(sharing: name, near: owner) }
        let last = String(name[name.index(after: slash)...])
        guard let shared = entriesSharingName[last] else { return entryByName[last] }
        var route = name.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var target: [String] = []
        if !name.hasPrefix("/") {
            target = entries[owner].question.path
            while route.first == ".." {
                route.removeFirst()
                guard !target.isEmpty else { return entry(sharing: last, near: owner) }
                target.removeLast()
            }
        }
        target += route
        return shared.first { entries[$0].question.path == target } ?? entry(sharing: last, near: owner)
    }

    private func entry(sharing name: String, near owner: Int) -> Int? {
        guard let shared = entriesSharingName[name] else { return entryByName[name] }
        let path = entries[owner].question.path
        func sharedLength(_ entry: Int) -> Int {
            zip(entries[entry].question.path, path).prefix { $0 == $1 }.count
        }
        return shared.max { sharedLength($0) < sharedLength($1) }
    }

    func resolve(_ name: String, from owner: Int) -> Resolution {
        guard let target = entry(named: name, near: owner) else { return .unknown }
        let ownerChain = entries[owner].question.type == .repeatGroup
            ? entries[owner].repeatChain + [owner] : entries[owner].repeatChain
        // A repeat's own name selects its instances, one node each.
        let targetChain = entries[target].question.type == .repeatGroup
            ? entries[target].repeatChain + [target] : entries[target].repeatChain
        var shared = 0
        while shared < ownerChain.count, shared < targetChain.count, ownerChain[shared] == targetChain[shared] {
            shared += 1
        }
        if shared == targetChain.count { return .single(target) }
        return .inRepeat(repeatEntry: targetChain[shared], target: target)
    }

    /// The names an entry's relevance or value reads.
    func references(of step: Step) -> [String] {
        switch step {
        case .relevance(let index):
            return entries[index].relevant?.readNames ?? []
        case .value(let index):
            guard entries[index].question.type == .calculate else { return [] }
            return (entries[index].calculation?.readNames ?? []) + (entries[index].dynamicDefault?.readNames ?? [])
        }
    }

    /// Orders each scope's steps so that each comes after the steps of the same
    /// scope it reads; a cycle is a problem naming the rows in it.
    private mutating func orderSteps() {
        for (scope, indices) in members {
            var nodes: [Step] = []
            for index in indices {
                nodes.append(.relevance(index))
                if !entries[index].question.type.isContainer { nodes.append(.value(index)) }
            }
            var dependencies: [Step: Set<Step>] = [:]
            for node in nodes {
                var needs: Set<Step> = []
                let owner: Int = switch node { case .relevance(let i), .value(let i): i }
                if case .relevance = node, let parent = entries[owner].parent, entries[parent].scope == scope {
                    needs.insert(.relevance(parent))
                }
                // A row that reads itself stays in its own way and is reported
                // as a cycle of one.
                for name in references(of: node) {
                    guard case .single(let target) = resolve(name, from: owner), entries[target].scope == scope else { continue }
                    needs.insert(.relevance(target))
                    if !entries[target].question.type.isContainer { needs.insert(.value(target)) }
                }
                if case .relevance = node { needs.remove(node) }
                dependencies[node] = needs
            }
            steps[scope] = topologicalOrder(nodes, dependencies: dependencies)
        }
    }

    private mutating func topologicalOrder(_ nodes: [Step], dependencies: [Step: Set<Step>]) -> [Step] {
        var remaining = dependencies
        var dependents: [Step: [Step]] = [:]
        for (node, needs) in dependencies {
            for need in needs { dependents[need, default: []].append(node) }
        }
        var ready = nodes.filter { remaining[$0]?.isEmpty ?? true }
        var order: [Step] = []
        order.reserveCapacity(nodes.count)
        var cursor = 0
        while cursor < ready.count {
            let node = ready[cursor]
            cursor += 1
            order.append(node)
            for dependent in dependents[node] ?? [] {
                remaining[dependent]?.remove(node)
                if remaining[dependent]?.isEmpty == true { ready.append(dependent) }
            }
        }
        if order.count < nodes.count {
            let stuck = Set(nodes).subtracting(order)
            let names = stuck.map { step -> Int in
                switch step { case .relevance(let i), .value(let i): i }
            }
            let rows = Set(names).sorted().map { entries[$0].question }
            let list = rows.map { "'\($0.name)'" }.joined(separator: ", ")
            problems.append(FormProblem(
                sheet: "survey", row: rows.first?.row,
                "These questions' calculations or relevance depend on each other in a cycle: \(list)."
            ))
        }
        return order
    }
}

