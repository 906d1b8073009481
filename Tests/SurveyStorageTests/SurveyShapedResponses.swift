import FormEngine
import Foundation
import SurveyStorage

/// The built-in survey's responses as its form stores them: answers by
/// question name in form order, numbers as their text (kind `number`), the
/// acknowledgement as `OK` or blank (kind `boolean`), and the title its
/// `instance_name` makes ("name — company", or the name alone).
extension FormResponse {
    static let surveyFormID = "survey_form"

    static func survey(
        name: String, company: String = "", years: String = "", isCurrentEmployer: Bool = false,
        salary: String = "", comments: String = "",
        submittedAt: Date = Date(timeIntervalSince1970: 1), startedAt: Date? = nil,
        instanceID: String = FormEnvironment.randomInstanceID(), formVersion: String = "1"
    ) -> FormResponse {
        FormResponse(
            formID: surveyFormID, formVersion: formVersion, instanceID: instanceID,
            startedAt: startedAt ?? submittedAt, submittedAt: submittedAt,
            title: company.isEmpty ? name : "\(name) — \(company)",
            answers: surveyAnswers(name: name, company: company, years: years, isCurrentEmployer: isCurrentEmployer,
                                   salary: salary, comments: comments)
        )
    }

    static func surveyAnswers(
        name: String, company: String = "", years: String = "", isCurrentEmployer: Bool = false,
        salary: String = "", comments: String = ""
    ) -> [Answer] {
        [
            Answer(path: "name", value: name),
            Answer(path: "company", value: company),
            Answer(path: "years_of_experience", value: years, kind: .number),
            Answer(path: "current_employer", value: isCurrentEmployer ? "OK" : "", kind: .boolean),
            Answer(path: "approx_salary", value: salary, kind: .number),
            Answer(path: "comments", value: comments),
        ]
    }
}

extension ResponseStore {
    /// The names in the built-in survey's responses, in submission order.
    func surveyNames() throws -> [String] {
        var names: [String] = []
        try forEachResponse(toForm: FormResponse.surveyFormID) { names.append($0.answer(at: "name") ?? "") }
        return names
    }
}

/// The built-in survey's questions, as a form file gives them to the export.
enum SurveyFormFile {
    static let markdown = """
        | settings |
        |          | form_id     | version |
        |          | survey_form | 1       |

        | survey |
        |        | type        | name                | label      | parameters                   |
        |        | text        | name                | Name       |                              |
        |        | text        | company             | Company    |                              |
        |        | decimal     | years_of_experience | Years      | start=0 end=60 step=0.5      |
        |        | acknowledge | current_employer    | Employer   |                              |
        |        | range       | approx_salary       | Salary     | start=0 end=500000 step=1000 |
        |        | text        | comments            | Comments   |                              |
        """

    static func definition() throws -> FormDefinition {
        try FormDefinition(data: Data(markdown.utf8), fileName: "form.md")
    }
}
