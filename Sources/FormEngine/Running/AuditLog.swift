public import Foundation

/// A form's `audit` row at work: when the response was started or resumed,
/// when each question was entered and left (and, with `track-changes`,
/// its answer before and after), when it was finalized; written as the
/// `audit.csv` ODK Collect attaches, times in milliseconds since 1970.
///
/// A desktop has no position to log: with `location-priority` the
/// location columns are there, and blank.
@MainActor
public final class AuditLog {
    /// The file name Collect gives the log, which the audit row's answer holds.
    public nonisolated static let fileName = "audit.csv"

    /// One line of the log.
    public struct Event: Equatable, Sendable {
        public var event: String
        public var node: String
        public var start: Date
        public var end: Date?
        public var oldValue: String?
        public var newValue: String?
    }

    public private(set) var events: [Event] = []
    /// `track-changes=true`: a question left records its answer before and after.
    public let tracksChanges: Bool
    /// `identify-user=true`: each line names who collected (Preferences' name).
    public let identifiesUser: Bool
    /// `location-priority` given: the location columns are written.
    public let logsLocation: Bool

    /// The question entered and not yet left: its node, when, and its answer then.
    private var current: (state: QuestionState, node: String, start: Date, value: String)?

    /// The log `definition`'s audit row asks for; `nil` when it has none.
    public init?(definition: FormDefinition) {
        guard let audit = definition.allQuestions.first(where: { $0.type == .audit }) else { return nil }
        tracksChanges = audit.parameters["track-changes"] == "true"
        identifiesUser = audit.parameters["identify-user"] == "true"
        logsLocation = audit.parameters["location-priority"] != nil
    }

    /// Records `event` (`form start`, `form resume`, `form finalize`, …), as
    /// having happened at `time`.
    public func record(_ event: String, at time: Date) {
        events.append(Event(event: event, node: "", start: time))
    }

    /// Focus went to `state`'s question, whose answer's node is `node`
    /// (`/data/member[2]/age`), or (`nil`) to none: the question left is
    /// logged with the time it was entered and this one.
    public func focus(_ state: QuestionState?, node: String?, at time: Date) {
        if let current, current.state === state { return }
        leave(at: time)
        if let state, let node { current = (state, node, time, state.value.value) }
    }

    /// Logs the question focused now as left at `time` (a submit, a window closed).
    public func leave(at time: Date) {
        guard let left = current else { return }
        current = nil
        let value = left.state.value.value
        events.append(Event(
            event: "question", node: left.node, start: left.start, end: time,
            oldValue: tracksChanges ? left.value : nil, newValue: tracksChanges ? value : nil
        ))
    }

    /// Starts over, for a new response.
    public func clear() {
        events = []
        current = nil
    }

    /// The log as Collect writes it, each line naming `user` when the form
    /// asks to identify who collected.
    public func csv(user: String) -> String {
        var header = ["event", "node", "start", "end"]
        if logsLocation { header += ["latitude", "longitude", "accuracy"] }
        if tracksChanges { header += ["old-value", "new-value"] }
        if identifiesUser { header += ["user"] }
        var lines = [header.joined(separator: ",")]
        for event in events {
            var fields = [event.event, event.node, Self.milliseconds(event.start), event.end.map(Self.milliseconds) ?? ""]
            if logsLocation { fields += ["", "", ""] }
            if tracksChanges { fields += [event.oldValue ?? "", event.newValue ?? ""] }
            if identifiesUser { fields += [user] }
            lines.append(fields.map(Self.field).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func milliseconds(_ date: Date) -> String {
        String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// A field as CSV writes it: quoted when it holds a comma, a quote or a line break.
    private static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
