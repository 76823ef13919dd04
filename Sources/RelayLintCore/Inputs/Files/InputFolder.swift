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

    /// Whether a file written at `path` (which need not exist yet, nor its folders) would be read
    /// as one of the logs of `folder`: the folder walk (`files(at:)`, links followed, hidden
    /// names left out) reaches the nearest folder on its way that exists, and no name below that
    /// is hidden. A report or manifest written there would be read by the next run as a log.
    /// Compared by device and inode: a link into the folder (`sink/hour01 -> ../real`) or to a
    /// hidden folder of it is followed as the walk follows it.
    public static func reads(_ path: String, under folder: String) -> Bool {
        var existing = URL(fileURLWithPath: path)
        var below: [String] = []
        var status = stat()
        repeat {
            below.append(existing.lastPathComponent)
            existing.deleteLastPathComponent()
        } while stat(existing.path, &status) != 0 && existing.path != "/"
        guard (status.st_mode & S_IFMT) == S_IFDIR, !below.contains(where: { $0.hasPrefix(".") }) else { return false }
        var visited: Set<FolderIdentity> = []
        return walk(reaches: FolderIdentity(status), from: folder, visited: &visited)
    }

    /// Whether the folder walk from `folder` reaches the folder `target`.
    private static func walk(reaches target: FolderIdentity, from folder: String, visited: inout Set<FolderIdentity>) -> Bool {
        var status = stat()
        guard stat(folder, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return false }
        let identity = FolderIdentity(status)
        if identity == target { return true }
        guard visited.insert(identity).inserted, let names = try? entryNames(of: folder) else { return false }
        return names.contains { walk(reaches: target, from: folder.hasSuffix("/") ? folder + $0 : folder + "/" + $0, visited: &visited) }
    }

    /// Whether `path` names a folder, or a link to one.
    public static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    private struct FolderIdentity: Hashable {
        var device: UInt64
        var inode: UInt64

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// The names in a folder, hidden ones (`.DS_Store`, `.git`, `.` and `..`) left out. A name that is not UTF-8 (a file copied from
    /// an old Latin-1 system) is an error that names it escaped: it cannot be opened by a name
    /// read as text, and was called "not a regular file".
    private static func entryNames(of folder: String) throws(InputError) -> [String] {
        guard let stream = opendir(folder) else {
            throw .unreadable(path: folder, reason: "cannot list the folder: \(String(cString: strerror(errno)))")
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            guard bytes.first != UInt8(ascii: ".") else { continue }
            guard let name = String(validating: bytes, as: UTF8.self) else {
                // Shown with each byte outside ASCII as `\xE9`.
                let shown = bytes.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true) }.joined()
                throw .unreadable(
                    path: folder.hasSuffix("/") ? folder + shown : folder + "/" + shown,
                    reason: "the file's name is not UTF-8 text, which relaylint cannot open by name; rename it")
            }
            names.append(name)
        }
        return names
    }

    private static func collect(
        folder: String, components: [[UInt8]], into files: inout [(path: String, components: [[UInt8]])],
        visited: inout Set<FolderIdentity>
    ) throws(InputError) {
        var status = stat()
        guard stat(folder, &status) == 0 else { throw .unreadable(path: folder, reason: FileBytes.openFailureReason(folder)) }
        guard visited.insert(FolderIdentity(status)).inserted else { return }
        let names = try entryNames(of: folder)
        for name in names {
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
