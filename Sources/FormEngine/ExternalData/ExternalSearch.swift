import Foundation
import TwoWayBinding

/// ODK Collect's `search()` appearance (deprecated there, and still in
/// forms teams have): a select's choices are the rows of a CSV file beside
/// the form. `search('fruits')` offers every row of `fruits.csv`;
/// `search('fruits', 'contains', 'name, kind', ${typed})` the rows where
/// one of those columns contains the value (also `matches`, `startswith`,
/// `endswith`; letter case ignored, as Collect's SQL `LIKE` does);
/// a fifth and sixth value keep the rows whose column equals another
/// (`…, 'region', ${region})`).
///
/// The select's first choice names the file's columns, as Collect reads
/// it: its `name` the column of values, its `label` the columns shown (the
/// first as the label, any more after it as "(column: value)"), its
/// `media::image` a column of image file names.
struct ExternalSearch: Sendable {
    enum Kind: String, Sendable {
        case contains, matches, startsWith = "startswith", endsWith = "endswith"
    }

    /// The file read, without `.csv`.
    var fileID: String
    var kind: Kind = .contains
    /// The columns searched; none: every row is offered.
    var columns: [String] = []
    var value: FormExpression?
    var filterColumn: String?
    var filterValue: FormExpression?

    /// Reads `search(…)` as written in an appearance; throws the reason it cannot.
    init(_ call: String) throws(ExternalSearchError) {
        guard let open = call.firstIndex(of: "("), call.last == ")" else { throw .notACall }
        let arguments = ExpressionText.arguments(String(call[call.index(after: open)..<call.index(before: call.endIndex)]))
        guard [1, 4, 6].contains(arguments.count) else { throw .argumentCount(arguments.count) }
        func literal(_ position: Int) throws(ExternalSearchError) -> String {
            let text = arguments[position]
            guard text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first else {
                throw .notQuoted(position + 1, text)
            }
            return String(text.dropFirst().dropLast().trimmingWhitespace())
        }
        func expression(_ position: Int) throws(ExternalSearchError) -> FormExpression {
            do {
                return try FormExpression(arguments[position])
            } catch {
                throw .unreadable(arguments[position], error.message)
            }
        }
        var file = try literal(0)
        if file.lowercased().hasSuffix(".csv") { file = String(file.dropLast(4)) }
        guard !file.isEmpty else { throw .noFile }
        fileID = file
        if arguments.count >= 4 {
            // As Collect: a kind it does not know searches as `contains`.
            kind = Kind(rawValue: try literal(1).lowercased()) ?? .contains
            columns = try literal(2).split(separator: ",").map { String($0.trimmingWhitespace()) }.filter { !$0.isEmpty }
            value = try expression(3)
        }
        if arguments.count == 6 {
            filterColumn = try literal(4)
            filterValue = try expression(5)
        }
    }

    /// The expressions it evaluates, for dependencies and checks.
    var expressions: [FormExpression] { [value, filterValue].compactMap { $0 } }

    /// Each choice's searched columns, lowercased once for every search to come.
    func foldedColumns(of choices: [Choice]) -> [[String]] {
        choices.map { choice in columns.map { (choice.properties[$0] ?? "").lowercased() } }
    }

    /// Whether a row is offered while the searched value, lowercased, is
    /// `needle` and the filter's `filtered`; `folded` is its `foldedColumns` entry.
    func admits(_ choice: Choice, folded: [String], needle: String, filtered: String?) -> Bool {
        if let filterColumn, choice.properties[filterColumn] != filtered { return false }
        guard !columns.isEmpty else { return true }
        return folded.contains { cell in
            switch kind {
            case .matches: return cell == needle
            case _ where needle.isEmpty: return true
            case .contains: return cell.contains(needle)
            case .startsWith: return cell.hasPrefix(needle)
            case .endsWith: return cell.hasSuffix(needle)
            }
        }
    }

    /// The choices `instance`'s rows make, as `placeholder` (the select's
    /// first choice) names their columns; one per value, the first row's.
    static func choices(of instance: SecondaryInstance, placeholder: Choice) -> [Choice] {
        let valueColumn = placeholder.name
        let shown = (placeholder.label.text(in: nil) ?? "").split(separator: ",")
            .map { String($0.trimmingWhitespace()) }.filter { !$0.isEmpty }
        let imageColumn = placeholder.media[.image]?.text(in: nil)
        var seen: Set<String> = []
        var choices: [Choice] = []
        for item in instance.items {
            var properties: [String: String] = [:]
            for field in item.children { properties[field.name] = field.stringValue }
            let value = properties[valueColumn] ?? ""
            guard seen.insert(value).inserted else { continue }
            var label = shown.first.flatMap { properties[$0] } ?? ""
            for column in shown.dropFirst() { label += " (\(column): \(properties[column] ?? ""))" }
            var choice = Choice(
                name: value, label: TranslatedText([FormDefinition.defaultLanguageName: label.isEmpty ? value : label]),
                properties: properties, row: 0
            )
            if let imageColumn, let image = properties[imageColumn], !image.isEmpty {
                choice.media[.image] = TranslatedText([FormDefinition.defaultLanguageName: image])
            }
            choices.append(choice)
        }
        return choices
    }

    /// Where `search(…)` stands in an appearance, up to its closing
    /// parenthesis (quotes respected); `nil` when it has none.
    static func callRange(in text: String) -> Range<String.Index>? {
        guard let start = text.range(of: "search(", options: .caseInsensitive)?.lowerBound else { return nil }
        if start > text.startIndex, !text[text.index(before: start)].isWhitespace { return nil }
        var end: String.Index?
        ExpressionText.walk(text[start...]) { index, character, depth in
            guard character == ")", depth == 1 else { return true }
            end = text.index(after: index)
            return false
        }
        return end.map { start..<$0 }
    }

}

/// Why an appearance's `search()` cannot be read.
enum ExternalSearchError: Error, Equatable {
    case notACall
    case argumentCount(Int)
    case notQuoted(Int, String)
    case unreadable(String, String)
    case noFile

    var message: String {
        switch self {
        case .notACall:
            "it is not a call such as search('fruits')"
        case .argumentCount(let count):
            "it takes 1, 4 or 6 values (the file; then how to search, the columns and the value; then a column and the value it must equal), not \(count)"
        case .notQuoted(let position, let text):
            "its value \(position), \(text), must be quoted text"
        case .unreadable(let text, let reason):
            "its value \(text) cannot be read: \(reason)"
        case .noFile:
            "it names no file"
        }
    }
}
