import CMappedRegions
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
/// describe what was evaluated). A file truncated under the mapping (`logrotate`'s
/// `copytruncate`, a sink file downloaded again in place) would stop the process with SIGBUS at
/// the first page past its new end; the mapping is guarded (`CMappedRegions`) so that such pages
/// read as zeros instead, and `checkUnchanged()` then says the file was cut short.
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
    /// The version of the file mapped; nil for one read into memory.
    private let version: FileVersion?
    /// The mapping's slot among the guarded regions; -1 when it is not guarded.
    private var guardSlot: Int32 = -1
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// - Parameters:
    ///   - opened: a pipe already opened (and begun) to recognise its format.
    ///   - capped: the caps on what is read into memory (a pipe, a device, a gzip file); a mapped
    ///     regular file has none.
    ///   - decompressing: whether a gzip file is read as what it holds (else as its bytes).
    init(
        path: String, opened: OpenedInput? = nil, capped: CappedRead = MappedFile.defaultCaps, decompressing: Bool = true
    ) throws(InputError) {
        self.path = path
        if let opened {
            contents = .read(try capped.read(path: path, prefix: opened.prefix, descriptor: opened.handle.fileDescriptor))
            version = nil
            return
        }
        if decompressing, GzipStream.isGzip(path: path) {
            let stream = try GzipStream(path: path)
            contents = .read(
                try capped.read(path: path, compressedBytesRead: { stream.consumed }) { buffer, count throws(InputError) in
                    try stream.read(into: buffer, count: count)
                })
            version = nil
            compressedSHA256 = try stream.compressedSHA256()
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
            version = FileVersion(status)
            guardSlot = relaylint_guard_region(address, Int(status.st_size))
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
        // Forgotten before it is unmapped: the addresses may be mapped again for something else.
        relaylint_unguard_region(guardSlot)
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

    /// The file's bytes as `Data`, for readers written over it: a mapped file's are not copied,
    /// and the `Data` keeps the mapping, and its guard against the file being cut short, while it
    /// lives. (Foundation's own mapping, `Data(contentsOf:options: .alwaysMapped)`, has no guard.)
    var data: Data {
        switch contents {
        case .mapped(let bytes):
            Data(
                bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes.baseAddress!), count: bytes.count,
                deallocator: .custom { _, _ in withExtendedLifetime(self) {} })
        case .read(let bytes): Data(bytes)
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
        if relaylint_region_was_cut(guardSlot) != 0 {
            throw InputError.changedWhileRead(path: path, how: "it was cut short under relaylint")
        }
        guard FileVersion(path: path) == version else { throw InputError.changedWhileRead(path: path, how: "") }
    }
}

/// A mapping handed to another thread to be taken down (`MappedFile.deinit`).
private struct UnmappedRegion: @unchecked Sendable {
    let start: UnsafeMutableRawPointer
    let count: Int
}
