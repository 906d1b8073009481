public import Foundation

/// A submitted response to a form opened from a file: which form and version
/// it answers, its instance id, when it was started and submitted, and its
/// answers by path (`group/question`, `repeat[2]/question`) in form order.
public struct FormResponse: Sendable, Equatable {
    /// The row id, once stored.
    public var id: Int64?
    public var formID: String
    public var formVersion: String
    public var instanceID: String
    public var startedAt: Date
    public var submittedAt: Date
    /// Relevant answers only, in form order.
    public var answers: [Answer]

    /// One answer, by its path.
    public struct Answer: Sendable, Equatable, Codable {
        public var path: String
        public var value: String

        public init(path: String, value: String) {
            self.path = path
            self.value = value
        }
    }

    public init(
        id: Int64? = nil, formID: String, formVersion: String, instanceID: String,
        startedAt: Date, submittedAt: Date, answers: [Answer]
    ) {
        self.id = id
        self.formID = formID
        self.formVersion = formVersion
        self.instanceID = instanceID
        self.startedAt = startedAt
        self.submittedAt = submittedAt
        self.answers = answers
    }

    /// The answer at `path`, or `nil` when none was stored (not relevant).
    public func answer(at path: String) -> String? {
        answers.first { $0.path == path }?.value
    }
}
