import Foundation

/// Dates in a workbook: a number cell whose style has a date or time number
/// format holds a day count (a serial), shown as the date it stands for, as
/// pyxform reads it (openpyxl's datetime, printed by Python): a settings
/// sheet's `version` typed as a date reads `2024-04-02 00:00:00`, not `45384`.
struct XLSXDates: Sendable {
    enum Kind: UInt8, Sendable { case number, date, duration }

    /// Each cell style's (`cellXfs` entry's) kind, by index.
    var styles: [Kind] = []
    /// The workbook counts days from 1904-01-01 (`date1904`), not 1899-12-30.
    var counts1904 = false

    func kind(ofStyle index: Int) -> Kind {
        styles.indices.contains(index) ? styles[index] : .number
    }

    /// Excel's own number formats (ECMA-376 18.8.30) that spreadsheets write
    /// by id only; the others are numbers, or locale formats pyxform reads as
    /// numbers too.
    static func builtInFormat(_ id: Int) -> String? {
        switch id {
        case 14: "mm-dd-yy"
        case 15: "d-mmm-yy"
        case 16: "d-mmm"
        case 17: "mmm-yy"
        case 18: "h:mm AM/PM"
        case 19: "h:mm:ss AM/PM"
        case 20: "h:mm"
        case 21: "h:mm:ss"
        case 22: "m/d/yy h:mm"
        case 45: "mm:ss"
        case 46: "[h]:mm:ss"
        case 47: "mmss.0"
        default: nil
        }
    }

    /// What a number format code makes of a number: a date when its first
    /// section has a day, month, year, hour, minute or second code outside
    /// quoted text and bracketed colours or locales; a duration when that
    /// date has elapsed time (`[h]`, `[mm]`, `[s]`) too.
    static func kind(ofFormat code: String) -> Kind {
        let section = Array(code.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        // Quoted text and bracketed groups are not codes; elapsed time is.
        var kept: [Character] = []
        var index = 0
        while index < section.count {
            let character = section[index]
            if character == "\"", let close = section[(index + 1)...].firstIndex(of: "\"") {
                index = close + 1
                continue
            }
            if character == "[", !bracketsElapsedTime(section, at: index),
               let close = section[(index + 1)...].firstIndex(of: "]") {
                index = close + 1
                continue
            }
            kept.append(character)
            index += 1
        }
        let isDate = kept.indices.contains { index in
            "dmhysDMHYS".contains(kept[index]) && (index == 0 || (kept[index - 1] != "_" && kept[index - 1] != "\\"))
        }
        guard isDate else { return .number }
        let lowered = section.map { Character($0.lowercased()) }
        return lowered.indices.contains(where: { bracketsElapsedTime(lowered, at: $0) }) ? .duration : .date
    }

    /// `[h]`, `[hh]`, `[m]`, `[mm]`, `[s]` or `[ss]` at `index`.
    private static func bracketsElapsedTime(_ characters: [Character], at index: Int) -> Bool {
        guard characters[index] == "[", index + 1 < characters.count else { return false }
        let unit = characters[index + 1]
        guard unit == "h" || unit == "m" || unit == "s" else { return false }
        var next = index + 2
        if next < characters.count, characters[next] == unit { next += 1 }
        return next < characters.count && characters[next] == "]"
    }

    /// A serial cell's text, as pyxform reads it: `YYYY-MM-DD HH:MM:SS`,
    /// `HH:MM:SS` below one day, milliseconds as `.ffffff` when there are
    /// any; a duration as Python prints one (`1 day, 2:00:00`); `#VALUE!`
    /// outside the years 1 to 9999.
    func shown(_ raw: String, kind: Kind) -> String {
        let isFraction = raw.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
        guard let value = isFraction ? Double(raw) : Int64(raw).map(Double.init) else { return XLSXReader.shownNumber(raw) }
        // Beyond what a date or a duration can hold.
        guard value.isFinite, abs(value) < 1e9 else { return "#VALUE!" }
        if kind == .duration { return Self.duration(value) }
        let day = value.rounded(.down)
        let milliseconds = Int64(((value - day) * 86_400 * 1_000).rounded(.toNearestOrEven))
        if value >= 0, value < 1, milliseconds < 86_400_000 { return Self.clock(milliseconds) }
        var days = Int(day)
        // Excel counts 1900 as a leap year: serials before 1 March 1900 are a day early.
        if !counts1904, value > 0, value < 60 { days += 1 }
        let epoch = counts1904 ? CivilDate(year: 1904, month: 1, day: 1) : CivilDate(year: 1899, month: 12, day: 30)
        // The milliseconds are under a day's, or exactly one (a fraction rounded up).
        let date = CivilDate(days: epoch.days + days + Int(milliseconds / 86_400_000))
        guard (1...9999).contains(date.year) else { return "#VALUE!" }
        return date.isoString + " " + Self.clock(milliseconds % 86_400_000)
    }

    /// `HH:MM:SS`, and `.ffffff` when there are milliseconds.
    private static func clock(_ milliseconds: Int64) -> String {
        let seconds = milliseconds / 1000
        var text = String(format: "%02lld:%02lld:%02lld", seconds / 3600, seconds / 60 % 60, seconds % 60)
        if milliseconds % 1000 != 0 { text += String(format: ".%06lld", milliseconds % 1000 * 1000) }
        return text
    }

    /// A duration of `days` as Python prints a timedelta, to the millisecond.
    private static func duration(_ days: Double) -> String {
        var microseconds = Int64((days * 86_400_000_000).rounded(.toNearestOrEven))
        // Python's timedelta rounds to the microsecond, openpyxl then to the millisecond.
        let (whole, fraction) = floorDivision(microseconds, 1_000_000)
        microseconds = whole * 1_000_000 + Int64((Double(fraction) / 1000).rounded(.toNearestOrEven)) * 1000
        let (wholeDays, time) = floorDivision(microseconds, 86_400_000_000)
        let seconds = time / 1_000_000
        var text = String(format: "%lld:%02lld:%02lld", seconds / 3600, seconds / 60 % 60, seconds % 60)
        if time % 1_000_000 != 0 { text += String(format: ".%06lld", time % 1_000_000) }
        if wholeDays != 0 { text = "\(wholeDays) day\(abs(wholeDays) == 1 ? "" : "s"), " + text }
        return text
    }
}
