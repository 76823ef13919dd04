import Foundation

/// Whether relaylint was started with its standard input closed (`<&-`), looked at before
/// anything is opened. The first file opened then takes descriptor 0, which `/dev/stdin` names:
/// `--events -` read that file, or nothing, and a run of no records passed as clean.
enum ClosedStandardInput {
    nonisolated(unsafe) private(set) static var wasClosed = false

    /// Notes whether standard input is closed, and if so puts `/dev/null` in its place, so that no
    /// input or report file is ever opened as descriptor 0.
    static func check() {
        guard fcntl(STDIN_FILENO, F_GETFD) == -1, errno == EBADF else { return }
        wasClosed = true
        let null = open("/dev/null", O_RDONLY)
        if null > STDIN_FILENO { close(null) }
    }

    /// Whether `path` reads standard input.
    static func isStandardInput(_ path: String) -> Bool { path == "-" || path == "/dev/stdin" }
}
