public import Foundation

/// A submitted survey: the answers and when they were submitted.
public struct SurveyResponse: Sendable, Hashable, Codable {
    /// The storage's identifier, `nil` until stored.
    public var id: Int64?
    public var answers: SurveyAnswers
    public var submittedAt: Date

    public init(id: Int64? = nil, answers: SurveyAnswers, submittedAt: Date) {
        self.id = id
        self.answers = answers
        self.submittedAt = submittedAt
    }
}
