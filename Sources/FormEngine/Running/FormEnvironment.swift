public import Foundation

/// What a running form takes from outside: the clock, the device and the
/// person collecting, and new instance ids. Tests give fixed ones.
public struct FormEnvironment: Sendable {
    /// The current time, for `now()`, `today()`, `start` and `end`.
    public var now: @Sendable () -> Date
    /// The time zone dates are shown and compared in.
    public var timeZone: TimeZone
    /// The `deviceid` metadata value.
    public var deviceID: String
    /// The `username` metadata value.
    public var username: String
    /// A new response's instance id (`uuid:` and a random UUID).
    public var newInstanceID: @Sendable () -> String

    /// Creates an environment.
    public init(
        now: @escaping @Sendable () -> Date = { Date() },
        timeZone: TimeZone = .current,
        deviceID: String = "",
        username: String = "",
        newInstanceID: @escaping @Sendable () -> String = FormEnvironment.randomInstanceID
    ) {
        self.now = now
        self.timeZone = timeZone
        self.deviceID = deviceID
        self.username = username
        self.newInstanceID = newInstanceID
    }

    /// An instance id as ODK makes them: `uuid:` and a random UUID.
    @Sendable public static func randomInstanceID() -> String {
        "uuid:" + UUID().uuidString.lowercased()
    }
}
