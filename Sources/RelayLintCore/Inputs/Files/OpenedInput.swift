import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pipe whose first bytes were read to recognise its format, still open: its reader takes
/// `prefix` first, then reads on from `handle`.
final class OpenedInput: @unchecked Sendable {
    let prefix: [UInt8]
    let handle: FileHandle

    init(prefix: [UInt8], handle: FileHandle) {
        self.prefix = prefix
        self.handle = handle
    }

    deinit { try? handle.close() }

    /// Goes back to the start of what follows `prefix`: possible only for a pipe held in a
    /// temporary file (`spooled`), which is read once for its ids and then for its records.
    func rewind() { lseek(handle.fileDescriptor, 0, SEEK_SET) }

    /// The same input, the rest of the pipe read to its end into an unnamed temporary file in
    /// `directory`, to be read later: a log joined to accounts by Apple user id is read once
    /// every other input is, and read from the pipe in its turn it saw only the inputs before it
    /// (notifications on standard input were not joined to the accounts that later logs create).
    /// At most `limit` bytes, as a pipe read into memory; in memory when `directory` takes no
    /// file.
    func spooled(path: String, directory: String, limit: Int = InputLimits.streamedBytes) throws(InputError) -> OpenedInput {
        guard let file = UnnamedFile.make(in: directory, prefix: "relaylint-pipe") else {
            // No temporary file (a directory that is full or not writable): held in memory, as a
            // pipe read whole is, up to the same cap.
            let bytes = try CappedRead(maxBytes: limit, kind: "a pipe held until the other inputs are read", refusesNUL: false)
                .read(path: path, prefix: prefix, descriptor: handle.fileDescriptor)
            guard let empty = FileHandle(forReadingAtPath: "/dev/null") else {
                throw InputError.unreadable(path: path, reason: "cannot hold the pipe until the other inputs are read")
            }
            return OpenedInput(prefix: bytes, handle: empty)
        }
        let spool = FileHandle(fileDescriptor: file, closeOnDealloc: true)
        let blockSize = 1 << 20
        let block = UnsafeMutableRawPointer.allocate(byteCount: blockSize, alignment: 16)
        defer { block.deallocate() }
        var total = prefix.count
        while true {
            let got = FileBytes.systemRead(handle.fileDescriptor, block, blockSize)
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw InputError.unreadable(path: path, reason: String(cString: strerror(errno))) }
            if got == 0 { break }
            total += got
            guard total <= limit else {
                throw InputError.unreadable(
                    path: path,
                    reason:
                        "stopped reading: more than \(InputLimits.describe(limit)), the cap on a pipe held until the other inputs are read")
            }
            var written = 0
            while written < got {
                let result = write(file, block + written, got - written)
                if result < 0, errno == EINTR { continue }
                guard result > 0 else {
                    throw InputError.unreadable(
                        path: path, reason: "cannot hold the pipe until the other inputs are read: \(String(cString: strerror(errno)))")
                }
                written += result
            }
        }
        lseek(file, 0, SEEK_SET)
        return OpenedInput(prefix: prefix, handle: spool)
    }
}
