/// Where a loop's groups come from: its list, and its rows as the sheet holds
/// them (what `--describe-form` prints, one entry per row).
public struct LoopSource: Sendable {
    /// The choice list the loop makes a group for each choice of.
    public var listName: String
    /// The rows between `begin loop` and `end loop`, before substitution.
    public var template: [Question]
}

/// `begin loop over LIST` as pyxform reads it: a group holding one group per
/// choice of LIST (but one named `none`), named and labelled as the choice,
/// each holding a copy of the loop's rows with `%(name)s`, `%(label)s` (and
/// `%(column)s` for the choice's other columns) replaced in their texts.
/// As in pyxform, only the loop's own rows are substituted, not the rows of
/// a group inside it.
extension SurveyBuilder {
    /// The list a `begin loop` row names: `begin loop over LIST` or `begin loop LIST`.
    static func loopListName(_ typeText: String) -> String? {
        let words = typeText.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        // `begin loop …` or `begin_loop …`: the words after the keyword.
        let rest = words.first == "begin" ? Array(words.dropFirst(2)) : Array(words.dropFirst())
        switch rest.count {
        case 1: return rest[0]
        case 2 where rest[0] == "over": return rest[1]
        default: return nil
        }
    }

    /// The loop closed with `children` as its rows: run as a group of groups.
    mutating func expandedLoop(_ loop: Question) -> Question {
        var result = loop
        result.type = .group
        let template = loop.children
        result.loop = LoopSource(listName: loop.listName ?? "", template: template)
        result.listName = nil
        let choices = loop.listName.flatMap { choiceLists[$0] }?.choices.filter { $0.name != "none" } ?? []
        let depth = loop.path.count
        func size(_ questions: [Question]) -> Int { questions.reduce(questions.count) { $0 + size($1.children) } }
        let made = choices.count * (size(template) + 1)
        guard made <= FormLimits.loopRows - loopRowsMade else {
            problems.append(FormProblem(
                sheet: "survey", row: loop.row,
                "The loop would make \(made) rows, \(size(template) + 1) for each of its \(choices.count) choices; a form's loops may make \(FormLimits.loopRows) at most."
            ))
            result.children = []
            return result
        }
        loopRowsMade += made

        // A bad `%` in a row is one problem, not one per choice.
        var refused: Set<Int> = []
        result.children = []
        for choice in choices {
            var group = Question(name: choice.name, type: .group, path: loop.path + [choice.name], row: loop.row)
            group.label = choice.label
            group.media = choice.media
            for row in template {
                var copy = Self.repathed(row, inserting: choice.name, at: depth)
                if let problem = Self.substitute(&copy, choice: choice), refused.insert(row.row).inserted {
                    problems.append(FormProblem(sheet: "survey", row: row.row, problem))
                }
                group.children.append(copy)
            }
            result.children.append(group)
        }

        // `${name}` finds one question: a row copied per choice is as many.
        for choice in choices { elementNames[choice.name, default: 0] += 1 }
        func recount(_ questions: [Question]) {
            for question in questions {
                let count = (elementNames[question.name] ?? 1) + choices.count - 1
                elementNames[question.name] = count > 0 ? count : nil
                recount(question.children)
            }
        }
        recount(template)
        return result
    }

    /// `question` and everything inside it with `name` inserted into its path at `index`.
    private static func repathed(_ question: Question, inserting name: String, at index: Int) -> Question {
        var copy = question
        copy.path.insert(name, at: min(index, copy.path.count))
        copy.children = question.children.map { repathed($0, inserting: name, at: index) }
        return copy
    }

    /// Replaces the choice's values in every text of `question` (not of the
    /// rows inside it); the reason when a `%` begins something else.
    private static func substitute(_ question: inout Question, choice: Choice) -> String? {
        var failure: String?
        // As pyxform has it: a text in a language the choices' labels are
        // translated into offers the name and that label alone.
        let labelLanguages = Set(choice.label.byLanguage.keys).subtracting([FormDefinition.defaultLanguageName])
        func values(_ language: String?) -> (String) -> String? {
            let nameAndLabelOnly = language.map(labelLanguages.contains) ?? false
            return { key in
                switch key {
                case "name": choice.name
                case "label": choice.label.text(in: language) ?? ""
                default: nameAndLabelOnly ? nil : choice.properties[key]
                }
            }
        }
        func plain(_ text: String?) -> String? {
            guard let text, failure == nil else { return text }
            switch LoopText.substituted(text, values(nil)) {
            case .success(let result): return result
            case .failure(let reason): failure = reason; return text
            }
        }
        func translated(_ text: TranslatedText) -> TranslatedText {
            var result = text
            for (language, value) in text.byLanguage where failure == nil {
                switch LoopText.substituted(value, values(language)) {
                case .success(let substituted): result.byLanguage[language] = substituted
                case .failure(let reason): failure = reason
                }
            }
            return result
        }
        func condition(_ condition: Condition) -> Condition {
            guard case .expression(let text) = condition else { return condition }
            return .expression(plain(text) ?? text)
        }

        question.label = translated(question.label)
        question.hint = translated(question.hint)
        question.guidanceHint = translated(question.guidanceHint)
        question.requiredMessage = translated(question.requiredMessage)
        question.constraintMessage = translated(question.constraintMessage)
        question.readout = translated(question.readout)
        question.media = question.media.mapValues(translated)
        question.required = condition(question.required)
        question.readOnly = condition(question.readOnly)
        question.trigger = plain(question.trigger)
        question.relevant = plain(question.relevant)
        question.constraint = plain(question.constraint)
        question.calculation = plain(question.calculation)
        question.defaultValue = plain(question.defaultValue)
        question.choiceFilter = plain(question.choiceFilter)
        question.appearance = plain(question.appearance)
        question.repeatCount = plain(question.repeatCount)
        question.parameters = question.parameters.mapValues { plain($0) ?? $0 }
        question.extraColumns = question.extraColumns.mapValues { plain($0) ?? $0 }
        return failure
    }
}

/// The `%` substitution of a loop's texts, as Python's `text % mapping` with
/// string conversions: `%(key)s` and `%%`, nothing else.
enum LoopText {
    enum Outcome: Equatable {
        case success(String)
        case failure(String)
    }

    static func substituted(_ text: String, _ value: (String) -> String?) -> Outcome {
        guard text.contains("%") else { return .success(text) }
        var result = ""
        var rest = Substring(text)
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            rest = rest[rest.index(after: percent)...]
            if rest.first == "%" {
                result += "%"
                rest = rest.dropFirst()
                continue
            }
            guard rest.first == "(", let close = rest.firstIndex(of: ")") else {
                return .failure("Inside a loop, '%' begins a choice's value, as in %(label)s or %(name)s; write %% for a percent sign.")
            }
            let key = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            guard after.first == "s" else {
                return .failure("Inside a loop, '%(\(key))' must be followed by 's', as in %(\(key))s.")
            }
            guard let replacement = value(key) else {
                return .failure("Inside a loop, %(\(key))s names no column of the loop's choices; 'name', 'label' and the choices sheet's other columns can be used.")
            }
            result += replacement
            rest = after.dropFirst()
        }
        result += rest
        return .success(result)
    }
}
