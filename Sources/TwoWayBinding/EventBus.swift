import Dispatch

/// Publish and subscribe by event type, on the main actor.
///
/// ```swift
/// struct ResponseSaved: Sendable { let count: Int }
/// let token = bus.subscribe(ResponseSaved.self) { print("saved", $0.count) }
/// bus.publish(ResponseSaved(count: 3))
/// ```
@MainActor
public final class EventBus {
    private struct Subscriber {
        let id: UInt64
        let handler: (Any) -> Void
    }

    private var subscribers: [ObjectIdentifier: [Subscriber]] = [:]
    private var nextID: UInt64 = 1

    /// A bus with no subscribers.
    public init() {}

    /// Calls `handler` with every event of type `Event` until the token ends.
    public func subscribe<Event>(_ type: Event.Type, _ handler: @escaping (Event) -> Void) -> ObservationToken {
        let key = ObjectIdentifier(type)
        let id = nextID
        nextID &+= 1
        subscribers[key, default: []].append(Subscriber(id: id) { event in
            if let event = event as? Event { handler(event) }
        })
        return ObservationToken { [weak self] in
            self?.subscribers[key]?.removeAll { $0.id == id }
        }
    }

    /// Delivers `event` to the subscribers of its type, in the order they
    /// subscribed, before returning.
    public func publish<Event>(_ event: Event) {
        guard let list = subscribers[ObjectIdentifier(Event.self)] else { return }
        for subscriber in list {
            // One that cancelled during this delivery is not called.
            guard subscribers[ObjectIdentifier(Event.self)]?.contains(where: { $0.id == subscriber.id }) == true
            else { continue }
            subscriber.handler(event)
        }
    }

    /// Publishes `event` from any thread; it is delivered on the main actor, in
    /// the order of the calls.
    public nonisolated func post<Event: Sendable>(_ event: Event) {
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                self.publish(event)
            }
        }
    }

    /// The number of subscribers to `type`.
    package func _subscriberCount<Event>(for type: Event.Type) -> Int {
        subscribers[ObjectIdentifier(type)]?.count ?? 0
    }
}
