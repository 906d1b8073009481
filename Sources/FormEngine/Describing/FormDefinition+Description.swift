extension FormDefinition {
    /// The form as `survey-form --describe-form` prints it: settings, languages
    /// and every row of the survey sheet, depth first.
    public var jsonDescription: JSONValue {
        .object([
            ("id", .string(settings.id)),
            ("version", .string(settings.version)),
            ("title", .string(settings.title)),
            ("default_language", .string(settings.defaultLanguage)),
            ("languages", .array(languages.map(JSONValue.string))),
            ("questions", .array(describedQuestions.map(describe))),
        ])
    }

    /// The survey's rows as written, depth first: a loop's own rows rather
    /// than its groups per choice, and not what pyxform adds (or_other's
    /// question), which is run, not described.
    private var describedQuestions: [Question] {
        var result: [Question] = []
        func visit(_ questions: [Question]) {
            for question in questions where !question.isGenerated {
                result.append(question)
                visit(question.loop?.template ?? question.children)
            }
        }
        visit(questions)
        return result
    }

    private func describe(_ question: Question) -> JSONValue {
        let choices: JSONValue = if question.type.isSelect, let list = question.listName, let choiceList = choiceLists[list] {
            .array(choiceList.choices.filter { !$0.isGenerated }.map { .string($0.name) })
        } else {
            .null
        }
        let parameters: JSONValue = if let range = question.rangeParameters {
            .object([("start", .number(range.start)), ("end", .number(range.end)), ("step", .number(range.step))])
        } else {
            .null
        }
        return .object([
            ("name", .string(question.name)),
            ("path", .string(question.pathString)),
            ("type", .string(question.loop == nil ? question.type.name : QuestionType.loop.name)),
            ("list", .string(question.type.isSelect ? question.listName : nil)),
            ("choices", choices),
            ("required", describe(question.required)),
            ("read_only", describe(question.readOnly)),
            ("relevant", .string(question.relevant)),
            ("constraint", .string(question.constraint)),
            ("calculation", .string(question.calculation)),
            ("choice_filter", .string(question.choiceFilter)),
            ("appearance", .string(question.appearance)),
            ("label", .object(question.label.byLanguage.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            ("parameters", parameters),
        ])
    }

    private func describe(_ condition: Condition) -> JSONValue {
        switch condition {
        case .no: .bool(false)
        case .yes: .bool(true)
        case .expression(let text): .string(text)
        }
    }
}
