import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A temporary file that packed records are written to while the inputs are read and read back
/// one partition at a time when the subjects are evaluated, so that a large run does not hold
/// every event in memory until its subject's turn.
///
/// The file is removed from its directory as soon as it is created: it has no name another
/// process could open, and it vanishes with the process however the run ends.
final class SpillFile: @unchecked Sendable {
    private let descriptor: Int32
    /// Where the next write goes (the file only grows).
    private var end = 0
    /// The directory it was made in, for error messages.
    let directory: String

    /// Makes an unnamed file in `directory`; nil when the directory does not take one (the caller
    /// then keeps everything in memory).
    convenience init?(directory: String) {
        guard let descriptor = UnnamedFile.make(in: directory, prefix: "relaylint-spill") else { return nil }
        self.init(descriptor: descriptor, directory: directory)
    }

    /// Takes over an open descriptor (tests use `/dev/full`, a disk that is always full).
    init(descriptor: Int32, directory: String) {
        self.descriptor = descriptor
        self.directory = directory
    }

    deinit { close(descriptor) }

    /// Appends `bytes`; returns where they start, or nil when they could not all be written (a
    /// full disk): the caller keeps them in memory instead.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var written = 0
        while written < bytes.count {
            let result = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(end + written))
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return nil }
            written += result
        }
        defer { end += bytes.count }
        return end
    }

    /// The `count` bytes written at `offset`.
    func read(at offset: Int, count: Int) throws(SpillError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let result = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                let reason = result == 0 ? "the file ended early" : String(cString: strerror(errno))
                throw SpillError(directory: directory, reason: reason)
            }
            done += result
        }
        return bytes
    }
}
