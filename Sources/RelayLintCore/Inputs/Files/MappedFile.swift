import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole input file, mapped into memory instead of read into it, for the readers that need
/// all of a file at once (an account export is one JSON document). A reader tells it which bytes
/// it is done with and their pages are let go: a 700 MB export then costs the pages of the batch
/// being parsed, not 700 MB, and the kernel reads the rest back from its cache if asked again.
///
/// Files that cannot be mapped (pipes, empty files) are read into memory instead.
///
/// A mapping reads the file as it is when each page is touched, not as it was when it was
/// opened, so `checkUnchanged()` tells a file rewritten while it was read (its hash would not
/// describe what was evaluated). A file truncated under the mapping stops the process (SIGBUS),
/// as it does any program that maps its input.
final class MappedFile: @unchecked Sendable {
    let path: String
    private enum Contents {
        case mapped(UnsafeBufferPointer<UInt8>)
        /// Not `Data`: wrapping the bytes read in one copied them, twice the memory at the peak.
        case read([UInt8])
    }
    private let contents: Contents
    /// The hash of a gzip file as it lies on disk (`contents` are what it holds).
    private var compressedSHA256: String?
    /// What identifies the file's version: device, inode, size, modification time.
    private let version: [Int]?
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// - Parameters:
    ///   - opened: a pipe already opened (and begun) to recognise its format.
    ///   - capped: the caps on what is read into memory (a pipe, a device, a gzip file); a mapped
    ///     regular file has none.
    init(path: String, opened: OpenedInput? = nil, capped: CappedRead = MappedFile.defaultCaps) throws(InputError) {
        self.path = path
        if let opened {
            contents = .read(try capped.read(path: path, prefix: opened.prefix, descriptor: opened.handle.fileDescriptor))
            version = nil
            return
        }
        if GzipStream.isGzip(path: path) {
            let stream = try GzipStream(path: path)
            contents = .read(
                try capped.read(path: path, compressedBytesRead: { stream.consumed }) { buffer, count throws(InputError) in
                    try stream.read(into: buffer, count: count)
                })
            version = nil
            compressedSHA256 = try GzipStream.sha256(ofCompressedFile: path)
            return
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw InputError.unreadable(path: path, reason: FileBytes.openFailureReason(path)) }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0,
            let address = mmap(nil, Int(status.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED
        {
            contents = .mapped(UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: Int(status.st_size)))
            version = Self.version(of: status)
            return
        }
        // Read to the end through the same descriptor: a pipe has no size, and opening it again
        // would lose what its writer already wrote.
        if status.st_mode & S_IFMT == S_IFDIR { throw InputError.unreadable(path: path, reason: "is a directory") }
        contents = .read(try capped.read(path: path, descriptor: descriptor))
        version = nil
    }

    /// The caps of an input read into memory: only its size.
    static let defaultCaps = CappedRead(maxBytes: InputLimits.streamedBytes, kind: "an input read into memory", refusesNUL: false)

    deinit {
        guard case .mapped(let bytes) = contents else { return }
        // Unmapped on another thread: taking down the page tables of a large log (a 160 MB file
        // took 8 ms) held up the thread that goes on to evaluate the rules. Nothing reads the
        // bytes after this; an unmapping the process's exit overtakes is done by the exit.
        let region = UnmappedRegion(start: UnsafeMutableRawPointer(mutating: bytes.baseAddress!), count: bytes.count)
        DispatchQueue.global(qos: .utility).async { munmap(region.start, region.count) }
    }

    /// Calls `body` with the file's bytes, which stay valid until it returns.
    func withBytes<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        switch contents {
        case .mapped(let bytes):
            defer { withExtendedLifetime(self) {} }
            return try body(bytes)
        case .read(let data):
            let outcome: Swift.Result<Result, Failure> = data.withUnsafeBufferPointer { bytes in
                do throws(Failure) {
                    return .success(try body(bytes))
                } catch {
                    return .failure(error)
                }
            }
            return try outcome.get()
        }
    }

    /// Lets go of the pages that lie wholly inside `range` (none of a file that was read);
    /// reading them again is still correct (the kernel maps the file's pages back).
    func release(_ range: Range<Int>) {
        guard case .mapped(let bytes) = contents, let pages = Self.wholePages(in: range, size: bytes.count) else { return }
        madvise(UnsafeMutableRawPointer(mutating: bytes.baseAddress! + pages.lowerBound), pages.count, MADV_DONTNEED)
    }

    /// The whole pages inside `range` of a file of `size` bytes; nil when there are none.
    static func wholePages(in range: Range<Int>, size: Int) -> Range<Int>? {
        let start = (max(0, range.lowerBound) + pageSize - 1) / pageSize * pageSize
        let end = min(range.upperBound, size) / pageSize * pageSize
        return end > start ? start..<end : nil
    }

    /// The file's hex SHA-256, read a few mebibytes at a time and let go behind (unless
    /// `releasing` is false: another thread reads the same pages meanwhile).
    func sha256(releasing: Bool = true) -> String {
        if let compressedSHA256 { return compressedSHA256 }
        return withBytes { bytes in
            var hasher = SHA256()
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + FileBytes.blockSize, bytes.count)
                hasher.update(bufferPointer: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[offset..<end])))
                if releasing { release(offset..<end) }
                offset = end
            }
            return FileBytes.hex(hasher.finalize())
        }
    }

    /// Throws when the mapped file is no longer the one opened (replaced, rewritten, resized):
    /// what was hashed and what was parsed may then differ.
    func checkUnchanged() throws(InputError) {
        guard let version else { return }
        var status = stat()
        guard stat(path, &status) == 0, Self.version(of: status) == version else {
            throw InputError.unreadable(path: path, reason: "the file changed while it was read")
        }
    }

    private static func version(of status: stat) -> [Int] {
        [Int(status.st_dev), Int(status.st_ino), Int(status.st_size), status.st_mtim.tv_sec, status.st_mtim.tv_nsec]
    }
}

/// A mapping handed to another thread to be taken down (`MappedFile.deinit`).
private struct UnmappedRegion: @unchecked Sendable {
    let start: UnsafeMutableRawPointer
    let count: Int
}
