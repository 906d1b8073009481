public import Foundation
public import SurveyModel

/// Writes responses as RFC 4180 CSV: a header line, CRLF line breaks, fields
/// quoted when they hold a comma, a quote or a line break.
///
/// The file is for spreadsheets, so it is made safe to open in one: it starts
/// with a UTF-8 byte-order mark (without it LibreOffice and Excel read "Zoë"
/// as Latin-1), and a text answer that a spreadsheet would run as a formula
/// (one beginning with `=`, `+`, `-`, `@`, a tab or a carriage return) is
/// written with a leading `'`, as OWASP recommends. Numbers, times and
/// booleans are the app's own and written as they are.
public enum CSVExporter {
    /// The header line's fields: the time, then the form's question names.
    public static let columns = ["submitted_at"] + SurveyField.allCases.map(\.questionName)

    /// Tells spreadsheets that the file is UTF-8.
    public static let byteOrderMark = "\u{FEFF}"

    /// The whole document for `responses`, in the order given.
    public static func document(for responses: [SurveyResponse]) -> String {
        var lines = [columns.joined(separator: ",")]
        lines.reserveCapacity(responses.count + 1)
        for response in responses { lines.append(row(for: response)) }
        return byteOrderMark + lines.joined(separator: "\r\n") + "\r\n"
    }

    /// One line for `response`: ISO 8601 time in UTC, `true`/`false`, plain
    /// numbers, and an empty field for an answer not given.
    public static func row(for response: SurveyResponse) -> String {
        let answers = response.answers
        return [
            timestamp(response.submittedAt),
            text(answers.name, keepingLineBreaks: false),
            text(answers.companyName, keepingLineBreaks: false),
            answers.yearsOfExperience.map { number(Double($0)) } ?? "",
            answers.isCurrentEmployer ? "true" : "false",
            answers.approxSalary.map { number(Double($0)) } ?? "",
            text(answers.comments, keepingLineBreaks: true),
        ].joined(separator: ",")
    }

    /// Writes the document to `url` whole or not at all (see `AtomicFile`):
    /// a new file is readable by its owner only; `replacing` lets it take the
    /// place of an existing one, keeping that file's mode, and without it an
    /// existing file fails with `StorageError.Code.fileExists`.
    public static func write(_ responses: [SurveyResponse], to url: URL, replacing: Bool) throws {
        do {
            try AtomicFile.write(Data(document(for: responses).utf8), to: url, existing: replacing ? .replace : .refuse)
        } catch let error as StorageError where error.code == .fileExists {
            throw error
        } catch {
            throw StorageError(tr("The export to %@ failed: %@", url.path, error.localizedDescription))
        }
    }

    /// A text answer as a cell: control and bidi characters gone (answers
    /// stored by older versions may have them), a formula neutralised, quoted
    /// where needed.
    static func text(_ answer: String, keepingLineBreaks: Bool) -> String {
        escape(neutralized(answer.removingControlCharacters(keepingLineBreaks: keepingLineBreaks)))
    }

    /// `text` with a leading `'` when a spreadsheet would read it as a formula.
    static func neutralized(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, Self.formulaStarts.contains(first) else { return text }
        return "'" + text
    }

    private static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    static func escape(_ field: String) -> String {
        // Scalars, not Characters: "\r\n" is one Character and equals neither.
        guard field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
        else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
