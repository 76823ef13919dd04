import Foundation

/// Which file a path names, by device and inode, so that two spellings of one file
/// (`events.jsonl`, `./logs/../events.jsonl`, a symbolic or hard link) compare equal.
///
/// Only regular files have one, and paths that do not exist yet (by their folder's device and
/// inode and their name): devices and pipes (`/dev/null`, `/dev/stdout`, `<(gunzip -c …)`) are
/// not files a report could overwrite.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
    /// The name in the folder `device`/`inode`, for a path that does not exist yet.
    var name: String?

    init?(path: String) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else { return nil }
            self.init(info)
            return
        }
        let url = URL(fileURLWithPath: path)
        guard errno == ENOENT, stat(url.deletingLastPathComponent().path, &info) == 0 else { return nil }
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), name: url.lastPathComponent)
    }

    /// The file `info` describes, whatever its kind (a pipe, standard output's file).
    init(_ info: stat) { self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), name: nil) }

    init(device: UInt64, inode: UInt64, name: String?) {
        self.device = device
        self.inode = inode
        self.name = name
    }
}
