import Foundation

/// The log files a folder holds, for `--events DIR`.
///
/// A Cloud Storage sink writes a file an hour under folders of the day
/// (`cloudaudit.googleapis.com/activity/2026/11/28/00:00:00_00:59:59_S0.json`), 8,760 a year;
/// naming each on the command line made a command line of thousands of options, whose parsing
/// grew with their square (20,000 files took 30 s before a byte was read).
public enum InputFolder {
    /// The most files one folder may stand for: far more than ten years of an hourly sink, and
    /// few enough that a folder named by mistake (`--events /`) stops at once instead of reading
    /// a disk.
    public static let maximumFiles = 1_000_000

    /// The files `path` stands for: itself when it is not a folder; else every file under it, at
    /// any depth, in the order of their paths compared folder by folder and byte by byte, so that
    /// a sink's `YYYY/MM/DD/HH:…` files come in the order they were written and equal times keep
    /// it (they keep the order files are given in). Hidden files and folders (`.DS_Store`,
    /// `.git`) are left out; a link is followed, a folder reached twice read once.
    ///
    /// A folder that holds no file, one that cannot be listed, and a device or pipe inside one
    /// (a pull request can add a link to `/dev/stdin`) are errors: read as nothing, a mistyped
    /// folder would pass a check with no evidence.
    public static func files(at path: String) throws(InputError) -> [String] {
        guard isFolder(path) else { return [path] }
        var files: [(path: String, components: [[UInt8]])] = []
        var visited: Set<FolderIdentity> = []
        try collect(folder: path, components: [], into: &files, visited: &visited)
        guard !files.isEmpty else {
            throw .unreadable(path: path, reason: "the folder holds no file to read as a log (hidden files are left out)")
        }
        files.sort { $0.components.lexicographicallyPrecedes($1.components) { $0.lexicographicallyPrecedes($1) } }
        return files.map(\.path)
    }

    /// Whether `path` names a folder, or a link to one.
    public static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    private struct FolderIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private static func collect(
        folder: String, components: [[UInt8]], into files: inout [(path: String, components: [[UInt8]])],
        visited: inout Set<FolderIdentity>
    ) throws(InputError) {
        var status = stat()
        guard stat(folder, &status) == 0 else { throw .unreadable(path: folder, reason: FileBytes.openFailureReason(folder)) }
        guard visited.insert(FolderIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))).inserted else { return }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw .unreadable(path: folder, reason: "cannot list the folder: \(InputError.systemReason(error))")
        }
        for name in names where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            let inner = components + [Array(name.utf8)]
            // One `stat` tells a folder from a file (a link followed); none, a broken link.
            var entry = stat()
            let kind = stat(path, &entry) == 0 ? entry.st_mode & S_IFMT : 0
            if kind == S_IFDIR {
                try collect(folder: path, components: inner, into: &files, visited: &visited)
                continue
            }
            guard kind == S_IFREG else {
                throw .unreadable(
                    path: path,
                    reason: "not a regular file (a device, a pipe or a link to one, or a broken link); a log folder's files must be files")
            }
            files.append((path, inner))
            guard files.count <= maximumFiles else {
                throw .unreadable(
                    path: folder,
                    reason: "the folder holds more than \(maximumFiles) files; name the folders of the logs to check (a month, a year)")
            }
        }
    }
}
