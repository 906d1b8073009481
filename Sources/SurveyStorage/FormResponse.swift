public import Foundation

/// A submitted response to a form (the built-in survey's too): which form
/// and version it answers, its instance id, when it was started and
/// submitted, what a list calls it, and its answers by path
/// (`group/question`, `repeat[2]/question`) in form order.
public struct FormResponse: Sendable, Equatable {
    /// The row id, once stored.
    public var id: Int64?
    public var formID: String
    public var formVersion: String
    public var instanceID: String
    public var startedAt: Date
    public var submittedAt: Date
    /// What a list of responses calls it: the form's `instance_name`, or its
    /// first answers (`""`: the list shows only its time).
    public var title: String
    /// Relevant answers only, in form order.
    public var answers: [Answer]
    /// For an edit, the instance id of the revision it replaces (XForms'
    /// `meta/deprecatedID`); `nil` for a first revision.
    public var deprecatedID: String?

    /// One answer, by its path, as the form's text notation writes it.
    public struct Answer: Sendable, Equatable, Codable {
        public var path: String
        public var value: String
        /// What the answer is, where the form's type says more than text: the
        /// server gets a number or a boolean, a CSV `true` or `false`.
        public var kind: Kind?

        public init(path: String, value: String, kind: Kind? = nil) {
            self.path = path
            self.value = value
            self.kind = kind
        }
    }

    /// Answers that are more than text.
    public enum Kind: String, Sendable, Codable {
        /// An integer, decimal or range: a number, or blank.
        case number
        /// An acknowledgement: `OK`, or blank for not given.
        case boolean
        /// The name of a file stored with the response (`AttachmentStore`):
        /// a photo, a recording, a document; blank for none.
        case attachment
    }

    public init(
        id: Int64? = nil, formID: String, formVersion: String, instanceID: String,
        startedAt: Date, submittedAt: Date, title: String = "", answers: [Answer], deprecatedID: String? = nil
    ) {
        self.id = id
        self.formID = formID
        self.formVersion = formVersion
        self.instanceID = instanceID
        self.startedAt = startedAt
        self.submittedAt = submittedAt
        self.title = title
        self.answers = answers
        self.deprecatedID = deprecatedID
    }

    /// The names of the files the response carries, in form order.
    public var attachmentNames: [String] { Self.attachmentNames(in: answers) }

    /// The names of the files `answers` name, in their order.
    static func attachmentNames(in answers: [Answer]) -> [String] {
        answers.compactMap { $0.kind == .attachment && !$0.value.isEmpty ? $0.value : nil }
    }

    /// The answer at `path`, or `nil` when none was stored (not relevant).
    public func answer(at path: String) -> String? {
        answers.first { $0.path == path }?.value
    }
}
