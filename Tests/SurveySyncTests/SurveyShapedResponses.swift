import FormEngine
import Foundation
import SurveyStorage

/// The built-in survey's responses as its form stores them: answers by
/// question name in form order, numbers as their text (kind `number`), the
/// acknowledgement as `OK` or blank (kind `boolean`), titled "name — company".
extension FormResponse {
    static func survey(
        name: String, company: String = "", years: String = "", isCurrentEmployer: Bool = false,
        salary: String = "", comments: String = "", submittedAt: Date = Date(),
        instanceID: String = FormEnvironment.randomInstanceID()
    ) -> FormResponse {
        FormResponse(
            formID: "survey_form", formVersion: "1", instanceID: instanceID, startedAt: submittedAt, submittedAt: submittedAt,
            title: company.isEmpty ? name : "\(name) — \(company)",
            answers: [
                Answer(path: "name", value: name),
                Answer(path: "company", value: company),
                Answer(path: "years_of_experience", value: years, kind: .number),
                Answer(path: "current_employer", value: isCurrentEmployer ? "OK" : "", kind: .boolean),
                Answer(path: "approx_salary", value: salary, kind: .number),
                Answer(path: "comments", value: comments),
            ]
        )
    }
}

/// The built-in survey's questions, as its form file gives them to an export.
enum SurveyFormFile {
    static func definition() throws -> FormDefinition {
        try FormDefinition(data: Data("""
            | settings |
            |          | form_id     | version |
            |          | survey_form | 1       |

            | survey |
            |        | type        | name                | label    | parameters                   |
            |        | text        | name                | Name     |                              |
            |        | text        | company             | Company  |                              |
            |        | decimal     | years_of_experience | Years    | start=0 end=60 step=0.5      |
            |        | acknowledge | current_employer    | Employer |                              |
            |        | range       | approx_salary       | Salary   | start=0 end=500000 step=1000 |
            |        | text        | comments            | Comments |                              |
            """.utf8), fileName: "form.md")
    }
}
