/// The questions of the survey, in the order the form asks them.
public enum SurveyField: String, Sendable, CaseIterable, Hashable {
    case name
    case companyName
    case yearsOfExperience
    case isCurrentEmployer
    case approxSalary
    case comments
}

/// The bounds the survey's answers must stay within.
public enum SurveyLimits {
    public static let maximumNameLength = 200
    public static let maximumCompanyLength = 200
    public static let maximumCommentsLength = 5_000
    public static let yearsOfExperience: ClosedRange<Double> = 0...60
    public static let yearsOfExperienceStep = 0.5
    public static let approxSalary: ClosedRange<Float> = 0...500_000
    public static let approxSalaryStep: Float = 1_000
}
