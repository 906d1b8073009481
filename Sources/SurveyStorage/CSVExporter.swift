public import Foundation
public import SurveyModel

/// Writes responses as RFC 4180 CSV: a header line, CRLF line breaks, fields
/// quoted when they hold a comma, a quote or a line break.
public enum CSVExporter {
    /// The header line's fields: the time, then the form's question names.
    public static let columns = ["submitted_at"] + SurveyField.allCases.map(\.questionName)

    /// The whole document for `responses`, in the order given.
    public static func document(for responses: [SurveyResponse]) -> String {
        var lines = [columns.joined(separator: ",")]
        lines.reserveCapacity(responses.count + 1)
        for response in responses { lines.append(row(for: response)) }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// One line for `response`: ISO 8601 time in UTC, `true`/`false`, plain
    /// numbers, and an empty field for an answer not given.
    public static func row(for response: SurveyResponse) -> String {
        let answers = response.answers
        return [
            timestamp(response.submittedAt),
            escape(answers.name),
            escape(answers.companyName),
            answers.yearsOfExperience.map { number(Double($0)) } ?? "",
            answers.isCurrentEmployer ? "true" : "false",
            answers.approxSalary.map { number(Double($0)) } ?? "",
            escape(answers.comments),
        ].joined(separator: ",")
    }

    /// Writes the document to `url`, atomically.
    public static func write(_ responses: [SurveyResponse], to url: URL) throws {
        do {
            try Data(document(for: responses).utf8).write(to: url, options: .atomic)
        } catch {
            throw StorageError("The export to \(url.path) failed: \(error.localizedDescription)")
        }
    }

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
