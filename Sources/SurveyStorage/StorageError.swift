public import Foundation
import FormEngine

/// A storage failure, with a message fit to show the user.
public struct StorageError: Error, LocalizedError, Sendable, Equatable {
    /// The failures a caller may answer differently from the rest.
    public enum Code: Sendable, Equatable {
        /// A file was not replaced because it exists.
        case fileExists
        /// The response database was written by a newer Survey Form.
        case newerDatabase
        case other
    }

    /// What went wrong and what became of the user's data.
    public let message: String
    public let code: Code

    public init(_ message: String, code: Code = .other) {
        self.message = message
        self.code = code
    }

    public var errorDescription: String? { message }

    static func fileExists(_ url: URL) -> StorageError {
        StorageError(tr("%@ already exists.", url.path), code: .fileExists)
    }

    static func posix(_ code: Int32, writing path: String) -> StorageError {
        StorageError(tr("%@ cannot be written: %@.", path, String(cString: strerror(code))))
    }
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
        try PrivateFiles.restrict(target)
        for suffix in companions {
            let companion = URL(fileURLWithPath: url.path + suffix)
            if fileManager.fileExists(atPath: companion.path) {
                let moved = URL(fileURLWithPath: target.path + suffix)
                try fileManager.moveItem(at: companion, to: moved)
                try PrivateFiles.restrict(moved)
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
