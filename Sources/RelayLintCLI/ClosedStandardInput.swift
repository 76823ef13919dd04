import ArgumentParser
import Foundation

/// Whether relaylint was started with its standard input closed (`<&-`), looked at before
/// anything is opened. The first file opened then takes descriptor 0, which `/dev/stdin` names:
/// `--events -` read that file, or nothing, and a run of no records passed as clean.
enum ClosedStandardInput {
    nonisolated(unsafe) private(set) static var wasClosed = false

    /// Notes whether standard input is closed, and if so puts `/dev/null` in its place, so that no
    /// input or report file is ever opened as descriptor 0. Every name of standard input is then
    /// refused (`refuse(_:)`): read, it would be that empty `/dev/null`.
    static func check() {
        guard fcntl(STDIN_FILENO, F_GETFD) == -1, errno == EBADF else { return }
        wasClosed = true
        let null = open("/dev/null", O_RDONLY)
        if null > STDIN_FILENO { close(null) }
    }

    /// Whether `path` names standard input: `-`, or a path of descriptor 0.
    static func isStandardInput(_ path: String) -> Bool {
        ["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "/proc/\(getpid())/fd/0"].contains(path)
    }

    /// Refuses the first of `paths` that names standard input when it was closed.
    static func refuse(_ paths: [String?]) throws {
        guard wasClosed, let path = paths.compactMap({ $0 }).first(where: isStandardInput) else { return }
        throw ValidationError("standard input is closed: \(path) has nothing to read (pipe the file in, or give its path)")
    }
}
