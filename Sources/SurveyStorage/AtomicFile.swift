import Foundation

/// Writes a whole file or nothing: the bytes go to an unnamed temporary file
/// in the target's folder (Linux's `O_TMPFILE`), are synced to disk, and only
/// then get the target's name. A process killed before that leaves no file
/// behind, not even a temporary one; a reader sees the old file or the new.
enum AtomicFile {
    /// What to do when the target's name is taken.
    enum Existing {
        /// Fail with `StorageError.Code.fileExists`, atomically: a file that
        /// appears meanwhile is not replaced either.
        case refuse
        /// Replace what has the name (a symbolic link itself, never its
        /// target), keeping a replaced file's mode.
        case replace
    }

    /// Writes `data` to `url`, readable by its owner only when it is new.
    static func write(_ data: Data, to url: URL, existing: Existing) throws {
        try write(to: url, existing: existing) { append in try append(data) }
    }

    /// Writes to `url` what `produce` hands to its `append`, in pieces, so a
    /// large file is never held in memory whole; the same guarantees.
    static func write(
        to url: URL, existing: Existing, _ produce: (_ append: (Data) throws -> Void) throws -> Void
    ) throws {
        let folder = url.deletingLastPathComponent().path
        var mode = PrivateFiles.fileMode
        var status = stat()
        if lstat(url.path, &status) == 0 {
            guard existing == .replace else { throw StorageError.fileExists(url) }
            if status.st_mode & S_IFMT == S_IFREG { mode = status.st_mode & 0o7777 }
        }

        var temporary = TemporaryFile(folder: folder, mode: mode)
        try temporary.open()
        defer { temporary.discard() }
        try produce { data in try temporary.append(data) }
        try temporary.sync()
        try temporary.publish(as: url.path, replacing: existing == .replace)
        syncFolder(folder)
    }

    /// Makes a new name durable: the folder's entry is synced too.
    private static func syncFolder(_ path: String) {
        let descriptor = Foundation.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}

/// The temporary file behind an atomic write: unnamed where the file system
/// allows it, else a hidden name beside the target that is removed on failure.
private struct TemporaryFile {
    let folder: String
    let mode: mode_t
    private(set) var descriptor: Int32 = -1
    /// The hidden name, when the file system had no unnamed files.
    private(set) var name: String?

    init(folder: String, mode: mode_t) {
        self.folder = folder
        self.mode = mode
    }

    mutating func open() throws {
        // O_TMPFILE is O_DIRECTORY plus __O_TMPFILE, 0o20000000 on Linux.
        let unnamed = Foundation.open(folder, O_WRONLY | O_CLOEXEC | O_DIRECTORY | 0o20000000, mode)
        if unnamed >= 0 {
            descriptor = unnamed
        } else {
            let hidden = "\(folder)/.survey-form-\(UUID().uuidString).tmp"
            let named = Foundation.open(hidden, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            guard named >= 0 else { throw StorageError.posix(errno, writing: folder) }
            descriptor = named
            name = hidden
        }
        // The process's umask may have taken bits the mode asked for.
        _ = fchmod(descriptor, mode)
    }

    func append(_ data: Data) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw StorageError.posix(errno, writing: folder)
                }
                offset += written
            }
        }
    }

    func sync() throws {
        guard fsync(descriptor) == 0 else { throw StorageError.posix(errno, writing: folder) }
    }

    /// Gives the file its name: a link that fails if the name is taken, or,
    /// when replacing, a rename over it.
    mutating func publish(as path: String, replacing: Bool) throws {
        if let name {
            if replacing {
                guard rename(name, path) == 0 else { throw StorageError.posix(errno, writing: path) }
            } else {
                guard link(name, path) == 0 else { throw Self.linkError(errno, path) }
                unlink(name)
            }
            self.name = nil
            return
        }
        let source = "/proc/self/fd/\(descriptor)"
        if !replacing {
            guard linkat(AT_FDCWD, source, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 else {
                throw Self.linkError(errno, path)
            }
            return
        }
        // rename() cannot take an unnamed file: link it under a hidden name first.
        let hidden = "\(folder)/.survey-form-\(UUID().uuidString).tmp"
        guard linkat(AT_FDCWD, source, AT_FDCWD, hidden, AT_SYMLINK_FOLLOW) == 0 else {
            throw StorageError.posix(errno, writing: path)
        }
        guard rename(hidden, path) == 0 else {
            let code = errno
            unlink(hidden)
            throw StorageError.posix(code, writing: path)
        }
    }

    /// Closes the file, and removes a hidden one that was never published.
    mutating func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if let name { unlink(name) }
        name = nil
    }

    private static func linkError(_ code: Int32, _ path: String) -> StorageError {
        code == EEXIST ? .fileExists(URL(fileURLWithPath: path)) : .posix(code, writing: path)
    }
}
