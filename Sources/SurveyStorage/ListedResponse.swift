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

extension ListedResponse {
    /// Where the response `id`, submitted at `submittedAt`, goes in `listed`
    /// (sorted as `ResponseStore.listing()` sorts, newest first, then by the
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
