public import Foundation

/// A stored response as a list of them shows it: who, for whom, and when.
public struct ListedResponse: Sendable, Hashable {
    public let id: Int64
    public let name: String
    public let companyName: String
    public let submittedAt: Date

    public init(id: Int64, name: String, companyName: String, submittedAt: Date) {
        self.id = id
        self.name = name
        self.companyName = companyName
        self.submittedAt = submittedAt
    }
}
