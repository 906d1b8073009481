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
    /// The `email` metadata value.
    public var email: String
    /// The `phonenumber` metadata value.
    public var phoneNumber: String
    /// A new response's instance id (`uuid:` and a random UUID).
    public var newInstanceID: @Sendable () -> String
    /// How answers read within labels and the summary.
    public var notation: AnswerNotation
    /// The answers of the response last saved to the form, by question name
    /// (`${last-saved#name}`); empty when none was saved.
    public var lastSaved: [String: String] = [:]

    /// Creates an environment.
    public init(
        now: @escaping @Sendable () -> Date = { Date() },
        timeZone: TimeZone = .current,
        deviceID: String = "",
        username: String = "",
        email: String = "",
        phoneNumber: String = "",
        newInstanceID: @escaping @Sendable () -> String = FormEnvironment.randomInstanceID,
        notation: AnswerNotation = .xforms
    ) {
        self.now = now
        self.timeZone = timeZone
        self.deviceID = deviceID
        self.username = username
        self.email = email
        self.phoneNumber = phoneNumber
        self.newInstanceID = newInstanceID
        self.notation = notation
    }

    /// The value of metadata row `type` (`deviceid`, `uri:email`, …), as
    /// Collect gives it: the `uri:` forms prefix a value that is set with
    /// its scheme; a phone's SIM identities are blank.
    public func metadataValue(_ type: QuestionType) -> String? {
        func uri(_ scheme: String, _ value: String) -> String { value.isEmpty ? "" : scheme + value }
        switch type.name {
        case "deviceid", "uri:deviceid": return deviceID
        case "username": return username
        case "uri:username": return uri("username:", username)
        case "email": return email
        case "uri:email": return uri("mailto:", email)
        case "phonenumber": return phoneNumber
        case "uri:phonenumber": return uri("tel:", phoneNumber)
        case "simserial", "uri:simserial", "subscriberid", "uri:subscriberid", "start-geopoint", "background-geopoint":
            return ""
        // The log's file, which the app writes as the response is stored.
        case "audit": return "audit.csv"
        default: return nil
        }
    }

    /// An instance id as ODK makes them: `uuid:` and a random UUID.
    @Sendable public static func randomInstanceID() -> String {
        "uuid:" + UUID().uuidString.lowercased()
    }
}
