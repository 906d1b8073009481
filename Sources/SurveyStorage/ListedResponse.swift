public import Foundation

/// A stored response as a list of them shows it: what it is called, when it
/// was submitted, and whether the server has it.
public struct ListedResponse: Sendable, Hashable {
    public let id: Int64
    public let instanceID: String
    /// See `FormResponse.title`.
    public let title: String
    public let submittedAt: Date
    /// Where it stands on its way to the server (`nil`: not queued, as in a
    /// database opened only to be read).
    public let delivery: DeliveryState?
    /// Why the last try to send it failed.
    public let deliveryError: String?

    public init(
        id: Int64, instanceID: String, title: String, submittedAt: Date,
        delivery: DeliveryState? = nil, deliveryError: String? = nil
    ) {
        self.id = id
        self.instanceID = instanceID
        self.title = title
        self.submittedAt = submittedAt
        self.delivery = delivery
        self.deliveryError = deliveryError
    }
}

extension ListedResponse {
    /// A response just stored, as the list shows it: on its way to the server.
    public init(_ response: FormResponse) {
        self.init(
            id: response.id ?? 0, instanceID: response.instanceID, title: response.title,
            submittedAt: response.submittedAt, delivery: .waiting
        )
    }

    /// Where the response `id`, submitted at `submittedAt`, goes in `listed`
    /// (sorted as `ResponseStore.listing(ofForm:)` sorts, newest first, then by the
    /// higher id), or `nil` when it is there already. Found by halving: a
    /// window adds a response to 100,000 listed ones without walking them.
    public static func position<Listed: RandomAccessCollection<ListedResponse>>(
        of id: Int64, submittedAt: Date, in listed: Listed
    ) -> Int? where Listed.Index == Int {
        var low = listed.startIndex, high = listed.endIndex
        while low < high {
            let middle = (low + high) / 2
            let other = listed[middle]
            if other.submittedAt > submittedAt || (other.submittedAt == submittedAt && other.id > id) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < listed.endIndex && listed[low].id == id ? nil : low
    }
}
