public import Foundation

/// A submitted survey: the answers and when they were submitted.
public struct SurveyResponse: Sendable, Hashable, Codable {
    /// The storage's identifier, `nil` until stored.
    public var id: Int64?
    public var answers: SurveyAnswers
    public var submittedAt: Date
    /// The response's own identity (`uuid:…`, as ODK names instances), fixed
    /// when the form was started and kept in its draft, so that submitting a
    /// restored draft again stores nothing twice; `nil` for responses stored
    /// before instance ids existed.
    public var instanceID: String?
    /// When the response was started (a restored draft keeps its own), and
    /// the version of the built-in survey it answers; `nil` for responses
    /// stored before either was kept.
    public var startedAt: Date?
    public var formVersion: String?

    public init(
        id: Int64? = nil, answers: SurveyAnswers, submittedAt: Date, instanceID: String? = nil,
        startedAt: Date? = nil, formVersion: String? = nil
    ) {
        self.id = id
        self.answers = answers
        self.submittedAt = submittedAt
        self.instanceID = instanceID
        self.startedAt = startedAt
        self.formVersion = formVersion
    }
}
