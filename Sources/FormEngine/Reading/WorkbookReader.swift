public import Foundation

/// Reads a form file into a `Workbook`, choosing the layout by the file's
/// extension: `.xlsx`, the legacy `.xls`, pyxform's `.csv` and `.md` layouts, or the XForm
/// (`.xml`) a server serves, read back into its rows.
public enum WorkbookReader {
    /// The file extensions a form may have, lower case.
    public static let supportedExtensions = ["xlsx", "xls", "csv", "md", "xml"]

    /// Reads the form file at `url`.
    ///
    /// Only a regular file of at most `FormLimits.fileBytes` is read: a
    /// FIFO, a device or a link to one is refused without waiting on it.
    public static func read(contentsOf url: URL) throws(FormFileError) -> Workbook {
        let fileExtension = url.pathExtension.lowercased()
        guard supportedExtensions.contains(fileExtension) else {
            throw .unsupportedExtension(url.lastPathComponent)
        }
        if fileExtension == "xml" {
            // An XForm's select_one_external reads the itemsets.csv beside it.
            return try XFormReader.read(try contents(of: url), fileName: url.lastPathComponent, media: FormMedia(besideFormAt: url))
        }
        return try read(try contents(of: url), fileName: url.lastPathComponent)
    }

    /// The bytes of the form file at `url`, read only once `fstat` says it is
    /// a regular file of sane size, and never more than that size says.
    static func contents(of url: URL) throws(FormFileError) -> Data {
        let name = url.lastPathComponent
        // Not blocking: opening a FIFO for reading would wait for a writer.
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(name, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(name, reason: String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            let kind = status.st_mode & S_IFMT == S_IFDIR ? "a folder" : "not a regular file (a pipe, a device or a socket)"
            throw .unreadable(name, reason: "it is \(kind)")
        }
        let size = Int(status.st_size)
        guard size <= FormLimits.fileBytes else {
            throw .refused(name, reason: "it is \(size >> 20) MB; a form file is at most \(FormLimits.fileBytes >> 20) MB")
        }
        // One byte more than `fstat` said, to notice a file still growing.
        var data = Data(count: size + 1)
        var filled = 0
        while filled < data.count {
            let count = data.withUnsafeMutableBytes { buffer in
                Foundation.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(name, reason: String(cString: strerror(errno))) }
            if count == 0 { break }
            filled += count
        }
        guard filled <= size else { throw .unreadable(name, reason: "it changed while it was read") }
        data.count = filled
        return data
    }

    /// Reads a form file's bytes, choosing the layout by `fileName`'s extension:
    /// for forms that come from somewhere other than a file (a resource bundle).
    public static func read(_ data: Data, fileName: String) throws(FormFileError) -> Workbook {
        let fileExtension = (fileName as NSString).pathExtension.lowercased()
        guard data.count <= FormLimits.fileBytes else {
            throw .refused(fileName, reason: "it is \(data.count >> 20) MB; a form file is at most \(FormLimits.fileBytes >> 20) MB")
        }
        switch fileExtension {
        case "xlsx":
            return try XLSXReader.read(data, fileName: fileName)
        case "xls":
            return try XLSReader.read(data, fileName: fileName)
        case "xml":
            return try XFormReader.read(data, fileName: fileName)
        case "csv", "md":
            guard let text = String(data: data, encoding: .utf8) else {
                throw .notUTF8(fileName)
            }
            do {
                return fileExtension == "csv" ? try CSVLayoutReader.read(text) : try MarkdownLayoutReader.read(text)
            } catch {
                throw .refused(fileName, reason: error.reason)
            }
        default:
            throw .unsupportedExtension(fileName)
        }
    }
}

/// Why a form file could not be read at all, before any of its rows.
public enum FormFileError: Error, Sendable, Equatable, CustomStringConvertible {
    case unsupportedExtension(String)
    case unreadable(String, reason: String)
    case notUTF8(String)
    case notAWorkbook(String, reason: String)
    /// Past one of `FormLimits`: refused before it could exhaust the app.
    case refused(String, reason: String)

    public var description: String {
        switch self {
        case .unsupportedExtension(let name):
            "\(name): not a form file (expected .xlsx, .xls, .csv, .md or an XForm's .xml)"
        case .unreadable(let name, let reason):
            "\(name): cannot be read: \(reason)"
        case .notUTF8(let name):
            "\(name): not UTF-8 text"
        case .notAWorkbook(let name, let reason):
            "\(name): not a readable .\((name as NSString).pathExtension.lowercased() == "xls" ? "xls" : "xlsx") workbook: \(reason)"
        case .refused(let name, let reason):
            "\(name): refused: \(reason)"
        }
    }
}
