/// Names and numbers that identify the application.
enum AppInfo {
    static let id = "io.github.surveyform.SurveyForm"
    static let name = "Survey Form"
    static let executable = "survey-form"
    static let version = "0.1.0"
    static let gettextDomain = "survey-form"
    static let resourceBase = "/io/github/surveyform/SurveyForm"
}
