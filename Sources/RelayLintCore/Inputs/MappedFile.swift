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
final class MappedFile: @unchecked Sendable {
    /// Valid while the object lives: read them through `withBytes`.
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The mapping's length, zero when the file was read instead.
    private let mappedLength: Int
    /// The copy of a file that could not be mapped.
    private let readBytes: UnsafeMutableBufferPointer<UInt8>?
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    init(path: String) throws(InputError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw InputError.unreadable(path: path, reason: FileBytes.openFailureReason(path)) }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0,
            let address = mmap(nil, Int(status.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED
        {
            mappedLength = Int(status.st_size)
            bytes = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: mappedLength)
            readBytes = nil
            return
        }
        // Read to the end through the same descriptor: a pipe has no size, and opening it again
        // would lose what its writer already wrote.
        let data: Data
        do {
            data = try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readToEnd() ?? Data()
        } catch {
            throw InputError.unreadable(path: path, reason: FileBytes.openFailureReason(path))
        }
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: data.count)
        _ = copy.initialize(from: data)
        mappedLength = 0
        readBytes = copy
        bytes = UnsafeBufferPointer(copy)
    }

    deinit {
        if mappedLength > 0 { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress!), mappedLength) }
        readBytes?.deallocate()
    }

    /// Calls `body` with the file's bytes, which stay valid until it returns.
    func withBytes<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        defer { withExtendedLifetime(self) {} }
        return try body(bytes)
    }

    /// Lets go of the pages that lie wholly inside `range`; reading them again is still correct
    /// (the kernel maps the file's pages back).
    func release(_ range: Range<Int>) {
        guard mappedLength > 0, let base = bytes.baseAddress else { return }
        let start = (range.lowerBound + Self.pageSize - 1) / Self.pageSize * Self.pageSize
        let end = min(range.upperBound, mappedLength) / Self.pageSize * Self.pageSize
        guard end > start else { return }
        madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, MADV_DONTNEED)
    }

    /// The file's hex SHA-256, read a few mebibytes at a time and let go behind.
    func sha256() -> String {
        var hasher = SHA256()
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + FileBytes.blockSize, bytes.count)
            hasher.update(bufferPointer: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[offset..<end])))
            release(offset..<end)
            offset = end
        }
        return FileBytes.hex(hasher.finalize())
    }
}
