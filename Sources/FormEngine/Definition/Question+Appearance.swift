/// The `appearance` column as Survey Form reads it: space-separated words,
/// case-insensitive, as ODK Collect reads them. Which words change the
/// control is decided here, so that `--describe-form` can name the ones
/// that do not.
extension Question {
    /// The appearance's words, lowercased, in the order written; a
    /// `search(…)` call is not among them (`searchCall`).
    public var appearances: [String] {
        guard var text = appearance else { return [] }
        if let call = ExternalSearch.callRange(in: text) { text.removeSubrange(call) }
        return text.split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
    }

    /// Collect's `search('file', …)` in the appearance, as written: a select
    /// whose choices are a CSV file's rows, searched (`ExternalSearch`).
    public var searchCall: String? {
        guard let appearance, let range = ExternalSearch.callRange(in: appearance) else { return nil }
        return String(appearance[range])
    }

    /// Whether `word` is among the question's appearances.
    public func hasAppearance(_ word: String) -> Bool {
        appearances.contains(word)
    }

    /// How a select lays out its choices.
    public var choiceLayout: ChoiceLayout {
        guard type.isSelect else { return .list }
        // pyxform gives each select of a table-list `list-nolabel`, whatever it had.
        if tableRow != nil { return .buttonsOnly }
        for word in appearances {
            switch word {
            case "likert" where type.isSelectOne: return .likert
            case "label": return .labelsOnly
            case "list-nolabel": return .buttonsOnly
            case "list", "horizontal": return .row
            case "columns": return .columns(nil)
            case "columns-pack", "horizontal-compact", "compact", "quickcompact": return .packed
            default:
                if word.hasPrefix("columns-"), let count = Int(word.dropFirst("columns-".count)), count > 0 {
                    return .columns(min(count, ChoiceLayout.maximumColumns))
                }
            }
        }
        return .list
    }

    /// How much of a date the question asks for: `month-year` and `year`
    /// ask for less than a day, and store the first day of it, as Collect does.
    public var datePrecision: DatePrecision {
        guard type == .date else { return .day }
        if hasAppearance("year") { return .year }
        if hasAppearance("month-year") { return .month }
        return .day
    }

    /// Whether the answer is kept out of sight (`masked` text, a barcode's
    /// `hidden-answer`): dots in its control and in the summary.
    public var hidesAnswer: Bool {
        (type == .text && hasAppearance("masked")) || (type == .barcode && hasAppearance("hidden-answer"))
    }

    /// The appearances this question's control does not honour: Survey Form
    /// shows the question as if they were absent, and `--describe-form` says so.
    public var ignoredAppearances: [String] {
        let search = searchCall != nil && type != .selectOne && type != .selectMultiple ? ["search()"] : []
        return appearances.filter { !Self.honours($0, for: type) } + search
    }

    /// Whether the control for a question of `type` changes for `word`.
    static func honours(_ word: String, for type: QuestionType) -> Bool {
        switch type {
        case .text:
            return ["multiline", "numbers", "masked", "url", "thousands-sep"].contains(word)
        case .integer, .decimal:
            return word == "thousands-sep"
        case .barcode:
            return word == "hidden-answer"
        case .date:
            return ["no-calendar", "month-year", "year"].contains(word)
        case .dateTime:
            return word == "no-calendar"
        case .range:
            return ["vertical", "picker", "rating", "no-ticks"].contains(word)
        case .image:
            // `new` and `new-front` ask for a camera; a desktop's file chooser offers what there is.
            return ["signature", "draw", "annotate", "new", "new-front"].contains(word)
        case .group, .repeatGroup:
            return ["field-list", "table-list"].contains(word)
        default:
            guard type.isSelect, type != .rank else { return false }
            if Self.layoutWords.contains(word) || word == "minimal" { return true }
            // A drop-down searched by typing, a scale of agreement and Enter
            // moving on after a pick are a single choice's.
            if type.isSelectOne, ["autocomplete", "likert", "quick"].contains(word) { return true }
            if word.hasPrefix("columns-"), let count = Int(word.dropFirst("columns-".count)), count > 0 { return true }
            return false
        }
    }

    private static let layoutWords: Set<String> = [
        "columns", "columns-pack", "horizontal", "horizontal-compact", "compact", "quickcompact",
        "label", "list-nolabel", "list",
    ]
}

/// How a select's choices are laid out (`appearance`).
public enum ChoiceLayout: Sendable, Equatable {
    /// One below the other (no appearance).
    case list
    /// In a grid, `N` columns (`columns-N`), or as many as suit the list (`columns`).
    case columns(Int?)
    /// One after the other, wrapping, each as wide as its label (`columns-pack`).
    case packed
    /// In one row, each button above its label, as a scale of agreement (`likert`).
    case likert
    /// In one row, labels and buttons (`list`, `horizontal`).
    case row
    /// The labels alone, as the header of a table of selects (`label`).
    case labelsOnly
    /// The buttons alone, under such a header (`list-nolabel`).
    case buttonsOnly

    /// The most columns a grid takes, however many the form asks for.
    public static let maximumColumns = 10

    /// The columns a grid of `count` choices takes: the form's number, or
    /// for plain `columns` as many as keep each column's labels readable.
    public func columnCount(for count: Int) -> Int {
        switch self {
        case .columns(let asked?): max(1, min(asked, count))
        case .columns(nil): max(1, min(count, count <= 4 ? count : 3))
        case .row, .likert, .labelsOnly, .buttonsOnly: max(count, 1)
        case .list, .packed: 1
        }
    }
}

/// How much of a date a question asks for.
public enum DatePrecision: Sendable, Equatable {
    case day, month, year
}

extension FormDefinition {
    /// What the form asks for that Survey Form shows differently without
    /// refusing the form: appearances no control here honours, each with
    /// its row.
    public var warnings: [FormProblem] {
        allQuestions.flatMap { question in
            question.ignoredAppearances.map { word in
                FormProblem(
                    sheet: "survey", row: question.row,
                    "'\(question.name)' asks for the appearance '\(word)', which Survey Form ignores on \(question.type.name) questions: the question is shown as if the word were not there."
                )
            }
        }
    }
}
