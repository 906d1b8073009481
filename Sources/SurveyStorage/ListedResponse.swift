public import Foundation

/// A stored response as a list of them shows it: who, for whom, when, and
/// whether the server has it.
public struct ListedResponse: Sendable, Hashable {
    public let id: Int64
    public let name: String
    public let companyName: String
    public let submittedAt: Date
    /// Where it stands on its way to the server (`nil`: not queued, as in a
    /// database opened only to be read).
    public let delivery: DeliveryState?
    /// Why the last try to send it failed.
    public let deliveryError: String?

    public init(
        id: Int64, name: String, companyName: String, submittedAt: Date,
        delivery: DeliveryState? = nil, deliveryError: String? = nil
    ) {
        self.id = id
        self.name = name
        self.companyName = companyName
        self.submittedAt = submittedAt
        self.delivery = delivery
        self.deliveryError = deliveryError
    }
}
