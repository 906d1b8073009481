public import Foundation

/// A storage failure, with a message fit to show the user.
public struct StorageError: Error, LocalizedError, Sendable, Equatable {
    /// What went wrong and what became of the user's data.
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var errorDescription: String? { message }
}

/// A damaged file found at start-up and moved aside, never deleted.
public struct SetAsideFile: Sendable, Equatable {
    /// Where the file was.
    public let original: URL
    /// Where it is now.
    public let movedTo: URL

    /// Moves `url` to a free name beside it that says it was damaged.
    static func moveAside(_ url: URL, companions: [String] = [], now: Date = Date()) throws -> SetAsideFile {
        let stamp = Self.stamp(now)
        let fileManager = FileManager.default
        var target = url.appendingPathExtension("corrupt-\(stamp)")
        var counter = 1
        while fileManager.fileExists(atPath: target.path) {
            counter += 1
            target = url.appendingPathExtension("corrupt-\(stamp)-\(counter)")
        }
        try fileManager.moveItem(at: url, to: target)
        for suffix in companions {
            let companion = URL(fileURLWithPath: url.path + suffix)
            if fileManager.fileExists(atPath: companion.path) {
                try fileManager.moveItem(at: companion, to: URL(fileURLWithPath: target.path + suffix))
            }
        }
        return SetAsideFile(original: url, movedTo: target)
    }

    private static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}
