/// A time of day to the millisecond.
struct TimeOfDay: Equatable {
    var hour: Int
    var minute: Int
    var second: Int
    var millisecond: Int

    init(milliseconds: Int) {
        hour = milliseconds / 3_600_000
        minute = milliseconds / 60_000 % 60
        second = milliseconds / 1000 % 60
        millisecond = milliseconds % 1000
    }

    /// `HH:MM:SS.mmm`.
    var isoString: String {
        pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2) + "." + pad(millisecond, 3)
    }
}
