public import Foundation

/// Time and dateTime answers as ODK Collect stores them, to the millisecond
/// with the UTC offset the desktop's time zone has then
/// (`14:02:00.000+01:00`, `2024-03-08T09:30:00.000+01:00`), and as people
/// type and read them (`14:02`, `2024-03-08 09:30`).
public enum TimeAnswer {
    /// A time typed or stored (seconds, milliseconds and an offset optional)
    /// as stored; an offset it gives is kept, else `zone`'s on `day`. Nil
    /// when it is no time.
    public static func stored(time text: String, in zone: TimeZone = .current, on day: Date = Date()) -> String? {
        guard let parsed = ParsedDateTime(time: text), let milliseconds = parsed.milliseconds else { return nil }
        return TimeOfDay(milliseconds: milliseconds).isoString + offsetText(parsed.utcOffset ?? zone.secondsFromGMT(for: day))
    }

    /// A date and time typed or stored (`T` or a space between) as stored;
    /// an offset it gives is kept, else `zone`'s at that moment. Nil when it
    /// is no date and time.
    public static func stored(dateTime text: String, in zone: TimeZone = .current) -> String? {
        guard let parsed = ParsedDateTime(text), let date = parsed.date, let milliseconds = parsed.milliseconds else { return nil }
        let offset = parsed.utcOffset ?? zone.secondsFromGMT(for: parsed.instant(timeZone: zone))
        return date.isoString + "T" + TimeOfDay(milliseconds: milliseconds).isoString + offsetText(offset)
    }

    /// A stored time or dateTime as a person types it: hours and minutes,
    /// and seconds when there are any (`14:02`, `14:02:30`,
    /// `2024-03-08 09:30`); the offset is the desktop's own and not shown.
    /// Anything else is shown as it is.
    public static func shown(_ stored: String, type: QuestionType) -> String {
        let parsed = type == .time ? ParsedDateTime(time: stored) : ParsedDateTime(stored)
        guard let parsed, let milliseconds = parsed.milliseconds else { return stored }
        let time = TimeOfDay(milliseconds: milliseconds)
        var text = pad(time.hour, 2) + ":" + pad(time.minute, 2)
        if time.second != 0 || time.millisecond != 0 { text += ":" + pad(time.second, 2) }
        guard type == .dateTime, let date = parsed.date else { return text }
        return date.isoString + " " + text
    }

    /// A UTC offset in seconds as XForms writes it: `+01:00`, `-05:30`.
    public static func offsetText(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + pad(minutes / 60, 2) + ":" + pad(minutes % 60, 2)
    }
}
