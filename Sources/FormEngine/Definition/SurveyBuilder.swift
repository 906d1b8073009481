import Foundation

/// Builds the survey sheet's tree of questions, groups and repeats, checking
/// each row as it goes.
struct SurveyBuilder {
    let choiceLists: [String: ChoiceList]
    let hasChoicesSheet: Bool
    var problems: [FormProblem] = []
    private(set) var questions: [Question] = []
    /// The lists `or_other` selects draw from.
    private(set) var otherChoiceLists: Set<String> = []
    /// How many rows carry each name, for `${name}` checks.
    var elementNames: [String: Int] = ["instanceID": 1]

    /// The external_choices sheet's lists; `nil` when the form has no such sheet.
    let externalChoiceLists: [String: ChoiceList]?
    /// Files that selects read their choices from, by name without extension.
    private var choiceFiles: [String: String] = [:]
    /// The rows loops have made so far, against `FormLimits.loopRows`.
    var loopRowsMade = 0
    /// `trigger` cells to check once every name is known.
    private var triggers: [(row: Int, header: String, value: String)] = []

    /// Whether the rules pyxform keeps for an author hold (a shown question
    /// has a label or hint; no group below the top is named `meta`); an
    /// XForm, already converted, runs as Collect runs it without them.
    private let checksAuthoring: Bool

    init(
        choiceLists: [String: ChoiceList], hasChoicesSheet: Bool, externalChoiceLists: [String: ChoiceList]?,
        checksAuthoring: Bool = true
    ) {
        self.choiceLists = choiceLists
        self.hasChoicesSheet = hasChoicesSheet
        self.externalChoiceLists = externalChoiceLists
        self.checksAuthoring = checksAuthoring
    }

    /// A group or repeat being filled, or the survey itself at the bottom.
    private struct Frame {
        var container: Question?
        var children: [Question] = []
        /// In a `table-list` group: the list its selects share, once the
        /// first select names it (`""` before).
        var tableList: String?
        var names: Set<String> = ["meta"]
    }

    private static let settingsTypes: [String: String] = [
        "form_title": "form_title", "set_form_title": "form_title",
        "form_id": "form_id", "set_form_id": "form_id",
    ]

    /// The survey sheet's columns that rows are read by, found once.
    private struct Columns {
        let type, name, disabled, trigger: SheetTable.Cells
        let required, readOnly, relevant, constraint, calculation, defaultValue: SheetTable.Cells
        let choiceFilter, appearance, repeatCount, parameters: SheetTable.Cells
        let label, hint, guidanceHint, requiredMessage, constraintMessage, readout: SheetTable.Texts
        /// `media::image`, `media::big-image`, `media::audio`, `media::video`, by kind.
        let media: [(MediaKind, SheetTable.Texts)]
        /// Columns the engine does not read itself, by index: kept as `extraColumns`.
        let extra: [(index: Int, name: String)]

        init(_ table: SheetTable) {
            type = table.cells("type")
            name = table.cells("name")
            disabled = table.cells("disabled")
            trigger = table.cells("trigger")
            required = table.cells("required")
            readOnly = table.cells("read_only")
            relevant = table.cells("relevant")
            constraint = table.cells("constraint")
            calculation = table.cells("calculation")
            defaultValue = table.cells("default")
            choiceFilter = table.cells("choice_filter")
            appearance = table.cells("appearance")
            repeatCount = table.cells("repeat_count")
            parameters = table.cells("parameters")
            label = table.texts("label")
            hint = table.texts("hint")
            guidanceHint = table.texts("guidance_hint")
            requiredMessage = table.texts("required_message")
            constraintMessage = table.texts("constraint_message")
            readout = table.texts("readout")
            media = MediaKind.allCases.map { ($0, table.texts("media::" + $0.rawValue)) }
            extra = table.columns.indices.compactMap { index in
                let column = table.columns[index]
                guard !column.header.isEmpty, !column.holdsText, !SurveyBuilder.knownColumns.contains(column.name) else {
                    return nil
                }
                return (index, column.name)
            }
        }
    }

    mutating func build(_ table: SheetTable, settings: inout [String: String]) {
        let columns = Columns(table)
        // Sized once: growing them row by row re-hashes every name again.
        elementNames.reserveCapacity(table.rows.count + 1)
        var stack = [Frame()]
        // The names of the open groups and repeats, kept apart from the
        // frames so that a row's path copies no question.
        var openNames: [String] = []
        var repeatNames: Set<String> = []

        for row in table.rows where !row.isEmpty {
            if let disabled = row[columns.disabled], Condition(cell: disabled) == .yes { continue }
            guard let typeText = row[columns.type] else {
                if row[columns.name] != nil || !row.translated(columns.label).isEmpty {
                    problem(row, "The row has no type.")
                }
                continue
            }
            // `form_title`, `set_form_id`, ...: a prefix test spares most rows a look-up.
            if typeText.hasPrefix("form_") || typeText.hasPrefix("set_"), let key = Self.settingsTypes[typeText] {
                settings[key] = row[columns.name]
                continue
            }

            if let endType = Self.container(typeText, keyword: "end") {
                guard stack.count > 1, let open = stack.last?.container, open.type == endType else {
                    problem(row, "Unmatched 'end_\(endType)': no 'begin_\(endType)' was found for the name '\(row[columns.name] ?? "unknown")'.")
                    continue
                }
                let frame = stack.removeLast()
                openNames.removeLast()
                var container = open
                container.children = frame.children
                if container.type == .loop { container = expandedLoop(container) }
                stack[stack.count - 1].children.append(container)
                continue
            }

            var name = row[columns.name]
            if typeText == "audit" {
                if let given = name, given != "audit" {
                    problem(row, "An audit must be named 'audit'; leave its name empty.")
                    continue
                }
                name = "audit"
            } else if name == nil, typeText == "note" {
                name = "generated_note_name_\(row.number)"
            }
            guard let name else {
                problem(row, "The question or group has no name.")
                continue
            }
            guard XMLName.isValid(name) else {
                problem(row, "The name '\(name)' is invalid: names begin with a letter or underscore, then letters, digits, underscores, hyphens or periods.")
                continue
            }
            if typeText != "audit" {
                elementNames[name, default: 0] += 1
                guard stack[stack.count - 1].names.insert(name).inserted else {
                    problem(row, name == "meta"
                        ? "The name 'meta' is reserved for the form's metadata."
                        : "The name '\(name)' is already used at this level; questions, groups and repeats must be unique within their group, repeat or the survey.")
                    continue
                }
            }
            let path = openNames + [name]

            if let beginType = Self.container(typeText, keyword: "begin") {
                guard openNames.count < FormLimits.groupDepth else {
                    // Nothing after this is read: every open group would be reported unclosed.
                    problem(row, "Groups and repeats nest more than \(FormLimits.groupDepth) deep here; the reference converter refuses such a form.")
                    return
                }
                if beginType == .repeatGroup {
                    if name == "data" {
                        problem(row, "A repeat cannot be named 'data', the name of the form's root.")
                    } else if !repeatNames.insert(name).inserted {
                        problem(row, "The repeat name '\(name)' is already used; repeat names must be unique in the whole form.")
                    }
                }
                var container = Question(name: name, type: beginType, path: path, row: row.number)
                fill(&container, from: row, columns)
                if beginType == .loop {
                    container.listName = Self.loopListName(typeText)
                    if let list = container.listName {
                        if choiceLists[list] == nil { problem(row, "The loop's list '\(list)' is not on the choices sheet.") }
                    } else {
                        problem(row, "A loop names the choice list it goes over: 'begin loop over LIST'.")
                    }
                }
                var frame = Frame(container: container, tableList: container.hasAppearance("table-list") ? "" : nil)
                // An XForm may hold a `meta` of its own below the top (CHT's
                // `inputs/meta`, an entity's in a repeat): an ordinary group.
                if !checksAuthoring { frame.names = [] }
                stack.append(frame)
                openNames.append(name)
                continue
            }

            var trigger: String?
            if let index = columns.trigger.indices.first(where: { row[$0] != nil }), let value = row[index] {
                triggers.append((row.number, table.columns[index].header, value))
                trigger = value
            }
            guard var question = makeQuestion(typeText, name: name, path: path, row: row) else { continue }
            fill(&question, from: row, columns)
            question.trigger = trigger
            check(question, row: row, columns)
            if question.type == .range, let set = question.parameters["tick_labelset"], let list = choiceLists[set] {
                question.tickLabels = Dictionary(list.choices.map { ($0.name, $0.label) }) { first, _ in first }
            }
            if question.type.isSelect, let shared = stack[stack.count - 1].tableList {
                placeInTable(&question, shared: shared, row: row)
                stack[stack.count - 1].tableList = question.listName ?? shared
            }
            stack[stack.count - 1].children.append(question)
            if question.hasOtherChoice, let list = question.listName {
                let other = Self.otherQuestion(after: question)
                // `${fav_other}` may be referred to, as in pyxform's form.
                elementNames[other.name, default: 0] += 1
                stack[stack.count - 1].children.append(other)
                otherChoiceLists.insert(list)
            }
        }

        // Rows that are questions (not groups or repeats): a trigger names one.
        let questionNames = triggers.isEmpty ? [] : Self.questionNames(in: stack)
        for trigger in triggers {
            guard case .success(let names) = ReferenceScanner.references(in: trigger.value) else {
                problems.append(FormProblem(sheet: "survey", row: trigger.row, "The '\(trigger.header)' value is invalid: a reference must be ${ followed by a question name and }."))
                continue
            }
            for name in names where !questionNames.contains(name) {
                problems.append(FormProblem(sheet: "survey", row: trigger.row, "The '\(trigger.header)' value refers to ${\(name)}, but no question is named '\(name)'."))
            }
        }

        for frame in stack.dropFirst().reversed() {
            guard let open = frame.container else { continue }
            problems.append(FormProblem(
                sheet: "survey", row: open.row,
                "Unmatched 'begin_\(open.type)': no 'end_\(open.type)' closes '\(open.name)'."
            ))
        }
        // Unclosed containers still describe what was read.
        while stack.count > 1 {
            let frame = stack.removeLast()
            guard var container = frame.container else { continue }
            container.children = frame.children
            if container.type == .loop { container = expandedLoop(container) }
            stack[stack.count - 1].children.append(container)
        }
        questions = stack[0].children
    }

    private static func questionNames(in stack: [Frame]) -> Set<String> {
        var names: Set<String> = []
        func visit(_ questions: [Question]) {
            for question in questions {
                if question.type.isContainer { visit(question.children) } else { names.insert(question.name) }
            }
        }
        for frame in stack { visit(frame.children) }
        return names
    }

    // MARK: - Rows

    /// A select in a `table-list` group: a row of the table, its choices
    /// under the first row's labels, so every row must share that list,
    /// unfiltered, as pyxform requires.
    private mutating func placeInTable(_ question: inout Question, shared: String, row: SheetTable.Row) {
        if shared.isEmpty {
            question.tableRow = .first
            if question.choiceFilter != nil { problem(row, "A choice_filter cannot be used in a table-list group.") }
        } else {
            question.tableRow = .following
            if let list = question.listName, list != shared {
                problem(row, "Every select in a table-list group must use the same choice list: '\(list)' is not '\(shared)'.")
            }
        }
    }

    /// `begin group`, `begin_repeat`, `end group`, ...: the container type.
    private static func container(_ type: String, keyword: String) -> QuestionType? {
        guard type.hasPrefix(keyword) else { return nil }
        var rest = type.dropFirst(keyword.count)
        guard let separator = rest.first, separator == " " || separator == "_" else { return nil }
        rest = rest.dropFirst()
        for (word, containerType) in XLSFormAliases.containers {
            guard rest.hasPrefix(word) else { continue }
            let tail = rest.dropFirst(word.count)
            if tail.isEmpty { return containerType }
            // `begin repeat over LIST` names a list; `end` takes nothing after.
            if keyword == "begin", tail.hasPrefix(" ") { return containerType }
        }
        return nil
    }

    private mutating func makeQuestion(_ typeText: String, name: String, path: [String], row: SheetTable.Row) -> Question? {
        if let type = XLSFormAliases.types[typeText] {
            var question = Question(name: name, type: type, path: path, row: row.number)
            question.typeConstraint = XLSFormAliases.typeConstraints[typeText]
            return question
        }
        // `osm LIST`: the list names the tags OpenMapKit asks for (the `osm`
        // sheet), which a file chosen here brings already.
        if typeText.hasPrefix("osm "), !typeText.dropFirst(4).isEmpty, !typeText.dropFirst(4).contains(" ") {
            return Question(name: name, type: .osm, path: path, row: row.number)
        }
        // `select_one LIST`, `select_multiple LIST or_other`, ...
        for (prefix, type) in XLSFormAliases.selectCommandsLongestFirst where typeText.hasPrefix(prefix) {
            var rest = typeText.utf8.dropFirst(prefix.utf8.count)
            var hasOther = false
            for suffix in XLSFormAliases.otherSuffixes
            where rest.count >= suffix.utf8.count && rest.suffix(suffix.utf8.count).elementsEqual(suffix.utf8) {
                rest = rest.dropLast(suffix.utf8.count)
                hasOther = true
                break
            }
            guard !rest.isEmpty, !rest.contains(UInt8(ascii: " ")) else { break }
            var question = Question(name: name, type: type, path: path, row: row.number)
            question.listName = String(Substring(rest))
            question.hasOtherChoice = hasOther
            return question
        }
        problem(row, "Unknown question type '\(typeText)'.")
        return nil
    }

    private func fill(_ question: inout Question, from row: SheetTable.Row, _ columns: Columns) {
        question.label = row.translated(columns.label)
        question.hint = row.translated(columns.hint)
        question.guidanceHint = row.translated(columns.guidanceHint)
        question.requiredMessage = row.translated(columns.requiredMessage)
        question.constraintMessage = row.translated(columns.constraintMessage)
        question.readout = row.translated(columns.readout)
        question.media = row.media(columns.media)
        question.required = Condition(cell: row[columns.required])
        question.readOnly = Condition(cell: row[columns.readOnly])
        question.relevant = row[columns.relevant]
        question.constraint = row[columns.constraint]
        question.calculation = row[columns.calculation]
        question.defaultValue = row[columns.defaultValue]
        question.choiceFilter = row[columns.choiceFilter]
        question.appearance = row[columns.appearance]
        question.repeatCount = row[columns.repeatCount]
        if let parameters = row[columns.parameters] {
            question.parameters = Self.parameters(parameters) ?? [:]
        }
        for extra in columns.extra {
            guard let value = row[extra.index] else { continue }
            question.extraColumns[extra.name] = value
        }
    }

    /// `or_other`'s question, as pyxform adds it after the select: a text
    /// named after it, shown while "other" is chosen.
    static func otherQuestion(after select: Question) -> Question {
        let name = select.name + "_other"
        var other = Question(name: name, type: .text, path: Array(select.path.dropLast()) + [name], row: select.row)
        other.label = TranslatedText([FormDefinition.defaultLanguageName: "Specify other."])
        other.relevant = "selected(${\(select.name)}, 'other')"
        other.isGenerated = true
        return other
    }

    /// The lists an `or_other` select draws from: each gets pyxform's
    /// "other" choice, labelled "Other" in every language its labels have.
    static func addingOtherChoice(to lists: [String: ChoiceList], for names: Set<String>) -> [String: ChoiceList] {
        var lists = lists
        for name in names {
            guard var list = lists[name], !list.choices.contains(where: { $0.name == "other" }) else { continue }
            let languages = Set(list.choices.flatMap(\.label.byLanguage.keys))
            let label = TranslatedText(Dictionary(uniqueKeysWithValues: (languages.isEmpty ? [FormDefinition.defaultLanguageName] : Array(languages)).map { ($0, "Other") }))
            list.choices.append(Choice(name: "other", label: label, properties: [:], row: 0, isGenerated: true))
            lists[name] = list
        }
        return lists
    }

    /// Columns `fill` reads itself; the rest go to `extraColumns`.
    fileprivate static let knownColumns: Set<String> = [
        "type", "name", "required", "read_only", "relevant", "constraint", "calculation", "default",
        "choice_filter", "appearance", "repeat_count", "parameters",
    ]

    /// `start=0 end=60 step=0.5` → keys (lower case) to values (lower case but
    /// for `label` and `value`), or `nil` when it cannot be read.
    static func parameters(_ text: String) -> [String: String]? {
        var result: [String: String] = [:]
        let tokens = text.split { $0.isWhitespace || $0 == "," || $0 == ";" }
        var index = 0
        var pieces: [Substring] = []
        // `a = b` and `a=b` read alike: split every token around `=`.
        for token in tokens {
            var current = token[...]
            while let equals = current.firstIndex(of: "=") {
                if equals > current.startIndex { pieces.append(current[..<equals]) }
                pieces.append("=")
                current = current[current.index(after: equals)...]
            }
            if !current.isEmpty { pieces.append(current) }
        }
        while index < pieces.count {
            guard index + 2 < pieces.count, pieces[index] != "=", pieces[index + 1] == "=", pieces[index + 2] != "=" else {
                return nil
            }
            let key = pieces[index].lowercased()
            let value = ["label", "value"].contains(key) ? String(pieces[index + 2]) : pieces[index + 2].lowercased()
            result[key] = value
            index += 3
        }
        return result
    }

    private mutating func check(_ question: Question, row: SheetTable.Row, _ columns: Columns) {
        if question.type == .calculate, question.calculation == nil, question.defaultValue == nil {
            problem(row, "The calculate row has no calculation.")
        }
        if let parameters = row[columns.parameters], Self.parameters(parameters) == nil {
            problem(row, "The 'parameters' value is invalid: parameters are written key1=value1 key2=value2.")
        }
        if question.type == .range { checkRange(question, row: row) }
        if question.type == .image || question.type == .audio || question.type == .backgroundAudio {
            checkMediaParameters(question, row: row)
        }
        if question.type == .integer || question.type == .decimal { checkBounds(question, row: row) }
        if question.type.isSelect { checkSelectParameters(question, row: row) }
        // An image, a recording or a video can be the whole label, as pyxform allows.
        if checksAuthoring, question.label.isEmpty, question.hint.isEmpty, question.media.isEmpty, question.calculation == nil,
           XLSFormAliases.shownTypes.contains(question.type) {
            problem(row, "The question '\(question.name)' has no label or hint.")
        }
        if question.type == .selectMultiple, let list = question.listName,
           let spaced = choiceLists[list]?.choices.first(where: { $0.name.contains(" ") }) {
            problem(row, "The choice '\(spaced.name)' of the list '\(list)' has a space in its name, which a select_multiple cannot store.")
        }
        if question.type.isSelect, let list = question.listName {
            let fromFile = question.type == .selectOneFromFile || question.type == .selectMultipleFromFile
            if fromFile {
                let lower = list.lowercased()
                if !(lower.hasSuffix(".csv") || lower.hasSuffix(".xml") || lower.hasSuffix(".geojson")) {
                    problem(row, "The file '\(list)' must end in .csv, .xml or .geojson.")
                } else {
                    let stem = FormParser.fileStem(list)
                    if let other = choiceFiles[stem], other != list {
                        problem(row, "The files '\(other)' and '\(list)' have the same name before the extension; a form can read only one of them.")
                    }
                    choiceFiles[stem] = list
                }
            } else if question.type == .selectOneExternal {
                if let externalChoiceLists {
                    if externalChoiceLists[list] == nil {
                        problem(row, "The choice list '\(list)' is not in the external_choices sheet.")
                    } else if question.choiceFilter == nil {
                        problem(row, "A select_one_external needs a choice_filter; a list offered whole belongs on the choices sheet.")
                    }
                } else {
                    problem(row, "A select_one_external needs an external_choices sheet, and the form has none.")
                }
            } else if choiceLists[list] == nil, !list.contains("${"),
                      ![".csv", ".xml", ".geojson"].contains(where: { list.lowercased().hasSuffix($0) }) {
                problem(row, hasChoicesSheet
                    ? "The choice list '\(list)' is not in the choices sheet."
                    : "The form has no choices sheet, and the select needs the list '\(list)'.")
            }
            if question.hasOtherChoice, question.choiceFilter != nil {
                problem(row, "'or_other' cannot be used with a choice_filter.")
            }
        }
    }

    /// A number's own bounds, when it declares them: numbers, `start` below
    /// `end`, a positive `step` (other keys are left alone, as pyxform does).
    private mutating func checkBounds(_ question: Question, row: SheetTable.Row) {
        let given = ["start", "end", "step"].filter { question.parameters[$0] != nil }
        guard !given.isEmpty else { return }
        for key in given where Double(question.parameters[key]!) == nil {
            problem(row, "The 'parameters' value is invalid: a number's '\(key)' must be a number.")
            return
        }
        guard question.parameters["start"] != nil, question.parameters["end"] != nil else {
            problem(row, "The 'parameters' value is invalid: a number's bounds need both 'start' and 'end'.")
            return
        }
        if question.declaredBounds == nil {
            problem(row, "The 'parameters' value is invalid: a number's 'start' must be below its 'end'.")
        } else if let step = question.parameters["step"].flatMap(Double.init), step <= 0 {
            problem(row, "The 'parameters' value is invalid: a number's 'step' must be above 0.")
        }
    }

    /// A photo's `max-pixels` and `app`, a recording's `quality`, as pyxform
    /// checks them.
    private mutating func checkMediaParameters(_ question: Question, row: SheetTable.Row) {
        let accepted: Set<String> = question.type == .image ? ["app", "max-pixels"] : ["quality"]
        let unknown = question.parameters.keys.filter { !accepted.contains($0) }.sorted()
        if !unknown.isEmpty {
            problem(row, "The 'parameters' value is invalid: \(question.type.name) accepts \(accepted.sorted().joined(separator: ", ")), not \(unknown.joined(separator: ", ")).")
            return
        }
        if let pixels = question.parameters["max-pixels"], Self.wholeNumber(pixels) == nil {
            problem(row, "The 'parameters' value is invalid: 'max-pixels' must be a whole number.")
        }
        if let quality = question.parameters["quality"] {
            var qualities: Set<String> = ["voice-only", "low", "normal"]
            if question.type == .audio { qualities.insert("external") }
            if !qualities.contains(quality) {
                problem(row, "The 'parameters' value is invalid: 'quality' is one of \(qualities.sorted().joined(separator: ", ")).")
            }
        }
    }

    /// A select takes `randomize` (true or false) and a `seed` (a number or
    /// a `${}` reference) for it; a select from a file also its `value`
    /// and `label` columns. Anything else is refused, as pyxform does.
    private mutating func checkSelectParameters(_ question: Question, row: SheetTable.Row) {
        var accepted: Set<String> = ["randomize", "seed"]
        if question.type == .selectOneFromFile || question.type == .selectMultipleFromFile { accepted.formUnion(["value", "label"]) }
        let unknown = question.parameters.keys.filter { !accepted.contains($0) }.sorted()
        if !unknown.isEmpty {
            problem(row, "The 'parameters' value is invalid: a select accepts \(accepted.sorted().joined(separator: ", ")), not \(unknown.joined(separator: ", ")).")
            return
        }
        guard let randomize = question.parameters["randomize"] else {
            if question.parameters["seed"] != nil { problem(row, "The 'parameters' value is invalid: a seed needs randomize=true.") }
            return
        }
        if randomize != "true", randomize != "false" {
            problem(row, "The 'parameters' value is invalid: randomize is true or false, not '\(randomize)'.")
        } else if let seed = question.parameters["seed"], !Self.isReference(seed), Double(seed) == nil {
            problem(row, "The 'parameters' value is invalid: a seed is a number or a reference to another question.")
        }
    }

    /// `${name}` and nothing else.
    private static func isReference(_ text: String) -> Bool {
        guard text.hasPrefix("${"), text.hasSuffix("}"), case .success(let names) = ReferenceScanner.references(in: text) else { return false }
        return names.count == 1 && text == "${\(names[0])}"
    }

    /// A whole number as Python's `int()` reads one: a sign, and digits
    /// that single underscores may group.
    static func wholeNumber(_ text: String) -> Int? {
        guard !text.hasPrefix("_"), !text.hasSuffix("_"), !text.contains("__"), !text.contains("+_"), !text.contains("-_") else {
            return nil
        }
        return Int(text.filter { $0 != "_" })
    }

    private mutating func checkRange(_ question: Question, row: SheetTable.Row) {
        let accepted: Set<String> = ["start", "end", "step", "tick_interval", "placeholder", "tick_labelset"]
        let unknown = question.parameters.keys.filter { !accepted.contains($0) }.sorted()
        if !unknown.isEmpty {
            problem(row, "The 'parameters' value is invalid: a range accepts \(accepted.sorted().joined(separator: ", ")), not \(unknown.joined(separator: ", ")).")
            return
        }
        func number(_ key: String, default fallback: Decimal?) -> Decimal?? {
            guard let text = question.parameters[key] else { return .some(fallback) }
            guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
                  text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }) else {
                problem(row, "The 'parameters' value is invalid: a range's '\(key)' must be a number.")
                return nil
            }
            return .some(value)
        }
        guard let start = number("start", default: 1), let end = number("end", default: 10),
              let step = number("step", default: 1), let tick = number("tick_interval", default: nil),
              let placeholder = number("placeholder", default: nil),
              let start, let end, let step else { return }
        let width = abs(end - start)
        if step == 0 {
            problem(row, "The 'parameters' value is invalid: a range's 'step' must not be 0.")
        } else if abs(step) > width {
            problem(row, "The 'parameters' value is invalid: a range's 'step' must not be larger than the range.")
        }
        if let tick {
            if tick == 0 {
                problem(row, "The 'parameters' value is invalid: a range's 'tick_interval' must not be 0.")
            } else if tick > width {
                problem(row, "The 'parameters' value is invalid: a range's 'tick_interval' must not be larger than the range.")
            } else if step != 0, !Self.isMultiple(tick, of: step) {
                problem(row, "The 'parameters' value is invalid: a range's 'tick_interval' must be a multiple of 'step'.")
            }
        }
        if let placeholder {
            if step != 0, !Self.isMultiple(placeholder - start, of: step) {
                problem(row, "The 'parameters' value is invalid: a range's 'placeholder' must be a multiple of 'step'.")
            } else if placeholder < min(start, end) || placeholder > max(start, end) {
                problem(row, "The 'parameters' value is invalid: a range's 'placeholder' must lie between 'start' and 'end'.")
            }
        }
        if let labels = question.parameters["tick_labelset"], choiceLists[labels] == nil {
            problem(row, "The 'parameters' value is invalid: 'tick_labelset' must name a choice list.")
        }
    }

    private static func isMultiple(_ value: Decimal, of step: Decimal) -> Bool {
        var quotient = value / step
        var rounded = Decimal()
        NSDecimalRound(&rounded, &quotient, 0, .plain)
        return rounded == quotient
    }

    private mutating func problem(_ row: SheetTable.Row, _ message: String) {
        problems.append(FormProblem(sheet: "survey", row: row.number, message))
    }
}
