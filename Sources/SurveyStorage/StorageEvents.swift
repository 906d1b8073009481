import TwoWayBinding

/// Said on a store's event bus once a response has reached the database,
/// with its identifier: posted by the thread that wrote it, delivered on
/// the main actor.
public struct ResponseStored: Sendable {
    /// The response as stored.
    public let response: FormResponse
}

/// Said on a store's event bus when a response could not be stored.
public struct StorageFailed: Sendable, Equatable {
    /// Why, in words for the user.
    public let message: String
}

extension ResponseStore {
    /// Runs `store` and says on `events` what became of the response.
    func announcing(_ store: () throws -> FormResponse) throws -> FormResponse {
        do {
            let stored = try store()
            events?.post(ResponseStored(response: stored))
            return stored
        } catch {
            events?.post(StorageFailed(message: error.localizedDescription))
            throw error
        }
    }
}
