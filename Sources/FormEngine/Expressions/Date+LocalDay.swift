import Foundation

extension Date {
    /// The moment a wall clock in `timeZone` shows `localSeconds` (seconds since 1970-01-01
    /// 00:00 on that clock).
    init(localSeconds: Double, in timeZone: TimeZone) {
        // The offset depends on the moment itself; a second guess settles it except in the
        // hour a clock skips or repeats.
        let guess = Date(timeIntervalSince1970: localSeconds)
        let first = localSeconds - Double(timeZone.secondsFromGMT(for: guess))
        let second = localSeconds - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: first)))
        self.init(timeIntervalSince1970: second)
    }

    /// Days since 1970-01-01 on a wall clock in `timeZone`, and the milliseconds since its midnight.
    func localDay(in timeZone: TimeZone) -> (days: Int, milliseconds: Int) {
        localDay(utcOffset: timeZone.secondsFromGMT(for: self))
    }

    func localDay(utcOffset: Int) -> (days: Int, milliseconds: Int) {
        let milliseconds = Int64((timeIntervalSince1970 * 1000).rounded(.down)) + Int64(utcOffset) * 1000
        let (days, rest) = floorDivision(milliseconds, 86_400_000)
        return (Int(days), Int(rest))
    }
}
