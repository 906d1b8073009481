import Foundation

/// The data folder and its files hold people's names and salaries: on a shared
/// computer only their owner may read them. The folder is 0700 and every file
/// in it 0600, including files an older version left with looser modes.
enum PrivateFiles {
    static let folderMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600

    /// Creates `directory` (and its parents) private, or makes an existing one private.
    static func prepareFolder(_ directory: URL) throws {
        let fileManager = FileManager.default
        var isFolder: ObjCBool = false
        if !fileManager.fileExists(atPath: directory.path, isDirectory: &isFolder) {
            try fileManager.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: Int(folderMode)]
            )
        } else if !isFolder.boolValue {
            throw POSIXError(.ENOTDIR)
        }
        try narrow(directory, to: folderMode)
    }

    /// Makes `url` readable by its owner only, if it exists.
    static func restrict(_ url: URL) throws {
        try narrow(url, to: fileMode)
    }

    /// Takes away every permission beyond `mode`; a missing file is left alone.
    private static func narrow(_ url: URL, to mode: mode_t) throws {
        var status = stat()
        guard lstat(url.path, &status) == 0 else {
            if errno == ENOENT { return }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        // A symbolic link has no mode of its own to narrow.
        guard status.st_mode & S_IFMT != S_IFLNK else { return }
        let current = status.st_mode & 0o7777
        guard current & ~mode != 0 else { return }
        // Read-only media, or a file of another user's: nothing can be
        // narrowed there, and its answers are no more exposed by trying.
        guard chmod(url.path, current & mode) == 0 || errno == EROFS || errno == EPERM else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    /// Creates an empty file readable by its owner only, unless one exists, so
    /// that SQLite (which gives its journal the database's mode) never makes a
    /// world-readable database. Where no file can be made, SQLite's own open
    /// fails next and says why.
    static func createIfMissing(_ url: URL) {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        if descriptor >= 0 { close(descriptor) }
    }
}
