#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What tells one version of a regular file from another: device, inode, size, modification
/// time and status change time (a rewrite of the same size with its modification time put back,
/// as `rsync --inplace -t` does, changes only the last). A file read in several steps (mapped and
/// touched page by page, or read block by block) is compared with the version it had when opened
/// once it has been read: a file rewritten, cut short or grown meanwhile was not the one its hash
/// and its records describe.
struct FileVersion: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int
    let modified: timespec
    let changed: timespec

    init(_ status: stat) {
        (device, inode, size) = (UInt64(status.st_dev), UInt64(status.st_ino), Int(status.st_size))
        (modified, changed) = (status.st_mtim, status.st_ctim)
    }

    /// The version of the file open on `descriptor`; nil unless it is a regular file.
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        self.init(status)
    }

    /// The version of the file at `path` now; nil when it cannot be looked at.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// Throws the changed-file error when the file open on `descriptor` (at `path`) is no longer
    /// this version: "cut short" when it is shorter than it was.
    func checkUnchanged(descriptor: Int32, path: String) throws(InputError) {
        guard let now = FileVersion(descriptor: descriptor), now != self else { return }
        throw .changedWhileRead(path: path, how: now.size < size ? "it was cut short under relaylint" : "")
    }

    static func == (lhs: FileVersion, rhs: FileVersion) -> Bool {
        lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
            && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
            && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
    }
}
