/// The questions of the survey, in the order the form asks them.
public enum SurveyField: String, Sendable, CaseIterable, Hashable {
    case name
    case companyName
    case yearsOfExperience
    case isCurrentEmployer
    case approxSalary
    case comments

    /// The question's name in the built-in form, which is also its CSV column.
    public var questionName: String {
        switch self {
        case .name: "name"
        case .companyName: "company"
        case .yearsOfExperience: "years_of_experience"
        case .isCurrentEmployer: "current_employer"
        case .approxSalary: "approx_salary"
        case .comments: "comments"
        }
    }
}
