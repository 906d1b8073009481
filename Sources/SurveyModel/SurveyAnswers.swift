/// What one respondent answered: the form's values, without the form.
public struct SurveyAnswers: Sendable, Hashable, Codable {
    public var name: String
    public var companyName: String
    /// `nil` until the respondent gives a value.
    public var yearsOfExperience: Double?
    public var isCurrentEmployer: Bool
    /// `nil` until the respondent gives a value.
    public var approxSalary: Float?
    public var comments: String

    public init(
        name: String = "",
        companyName: String = "",
        yearsOfExperience: Double? = nil,
        isCurrentEmployer: Bool = false,
        approxSalary: Float? = nil,
        comments: String = ""
    ) {
        self.name = name
        self.companyName = companyName
        self.yearsOfExperience = yearsOfExperience
        self.isCurrentEmployer = isCurrentEmployer
        self.approxSalary = approxSalary
        self.comments = comments
    }

    /// A blank form.
    public static let empty = SurveyAnswers()
}
