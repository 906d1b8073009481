public import Foundation

/// Reads a form file into a `Workbook`, choosing the layout by the file's
/// extension: `.xlsx`, or pyxform's `.csv` and `.md` layouts.
public enum WorkbookReader {
    /// The file extensions a form may have, lower case.
    public static let supportedExtensions = ["xlsx", "csv", "md"]

    /// Reads the form file at `url`.
    public static func read(contentsOf url: URL) throws(FormFileError) -> Workbook {
        let fileExtension = url.pathExtension.lowercased()
        guard supportedExtensions.contains(fileExtension) else {
            throw .unsupportedExtension(url.lastPathComponent)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(url.lastPathComponent, reason: Self.reason(for: error))
        }
        return try read(data, fileName: url.lastPathComponent)
    }

    /// Reads a form file's bytes, choosing the layout by `fileName`'s extension:
    /// for forms that come from somewhere other than a file (a resource bundle).
    public static func read(_ data: Data, fileName: String) throws(FormFileError) -> Workbook {
        let fileExtension = (fileName as NSString).pathExtension.lowercased()
        switch fileExtension {
        case "xlsx":
            return try XLSXReader.read(data, fileName: fileName)
        case "csv", "md":
            guard let text = String(data: data, encoding: .utf8) else {
                throw .notUTF8(fileName)
            }
            return fileExtension == "csv" ? CSVLayoutReader.read(text) : MarkdownLayoutReader.read(text)
        default:
            throw .unsupportedExtension(fileName)
        }
    }

    private static func reason(for error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError {
            return String(cString: strerror(ENOENT))
        }
        return nsError.localizedDescription
    }
}

/// Why a form file could not be read at all, before any of its rows.
public enum FormFileError: Error, Sendable, Equatable, CustomStringConvertible {
    case unsupportedExtension(String)
    case unreadable(String, reason: String)
    case notUTF8(String)
    case notAWorkbook(String, reason: String)

    public var description: String {
        switch self {
        case .unsupportedExtension(let name):
            "\(name): not a form file (expected .xlsx, .csv or .md)"
        case .unreadable(let name, let reason):
            "\(name): cannot be read: \(reason)"
        case .notUTF8(let name):
            "\(name): not UTF-8 text"
        case .notAWorkbook(let name, let reason):
            "\(name): not a readable .xlsx workbook: \(reason)"
        }
    }
}
