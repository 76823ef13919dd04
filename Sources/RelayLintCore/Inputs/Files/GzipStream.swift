import CZlib
import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A gzip-compressed input read as the text it holds: Cloud Storage sinks and log archives are
/// `.jsonl.gz`, and decompressing them to a file first would be the only step of a pipeline that
/// needs disk. Recognised by its magic bytes, not its name. Concatenated members are read as one
/// stream, as `gunzip` does. The file's hash in reports is that of the compressed file.
///
/// Inflated member by member with zlib's `inflate` rather than read with `gzread`: `gzread`
/// ignores whatever follows the last member when it is not another one, so lines appended
/// uncompressed to a `.jsonl.gz` were dropped without a word (`gunzip` warns "trailing garbage
/// ignored"). Here they are an error that names the byte where they start.
final class GzipStream {
    let path: String
    private let descriptor: Int32
    /// zlib keeps the stream's address: it must not move.
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutablePointer<UInt8>
    private static let inputSize = 1 << 20
    /// The offset in the file of `input`'s first byte, and how many bytes `input` holds.
    private var inputOffset = 0
    private var inputCount = 0
    private var inputEnded = false
    /// Whether a member has ended and the next one, if any, has not begun.
    private var betweenMembers = false
    private var finished = false
    /// The hash of the compressed bytes read so far, through the descriptor opened: the file
    /// hashed is the file decompressed, even when another is moved over its path meanwhile (the
    /// hash was taken by opening the path again, and paired the old file's records with the new
    /// one's hash).
    private var hasher = SHA256()
    /// The file's version when opened (`checkUnchanged`).
    private let version: FileVersion?

    /// Whether a regular file starts with gzip's magic bytes.
    static func isGzip(path: String) -> Bool {
        // Through links: a link to a .gz file is one.
        guard FileBytes.isRegularFile(path), let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let magic = (try? handle.read(upToCount: 2)) ?? Data()
        return magic == Data([0x1F, 0x8B])
    }

    init(path: String) throws(InputError) {
        self.path = path
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw InputError.unreadable(path: path, reason: FileBytes.openFailureReason(path)) }
        version = FileVersion(descriptor: descriptor)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        input = .allocate(capacity: Self.inputSize)
        guard relaylint_inflateInitGzip(stream) == Z_OK else {
            close(descriptor)
            stream.deallocate()
            input.deallocate()
            throw InputError.unreadable(path: path, reason: "zlib could not start decompressing")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        input.deallocate()
        close(descriptor)
    }

    /// The SHA-256 of the compressed file itself, once it has been read to its end (`read`
    /// returned 0): the report lists each original file with its hash, and the file a reviewer
    /// can check with `sha256sum` is the `.gz` they were given. Throws when the file was cut
    /// short or rewritten in place while it was read.
    func compressedSHA256() throws(InputError) -> String {
        guard finished else { throw .unreadable(path: path, reason: "the gzip file was hashed before it was read to its end") }
        try version?.checkUnchanged(descriptor: descriptor, path: path)
        return FileBytes.hex(hasher.finalize())
    }

    /// Up to `count` decompressed bytes into `buffer`; 0 at the end.
    ///
    /// A file that ends inside a member (a writer that died, a copy cut short) is an error at its
    /// end, not a shorter log; so is anything after the last member that is not another one.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(InputError) -> Int {
        guard !finished, count > 0 else { return 0 }
        let wanted = UInt32(min(count, Int(UInt32.max)))
        stream.pointee.next_out = buffer.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = wanted
        while stream.pointee.avail_out == wanted {
            if betweenMembers {
                while stream.pointee.avail_in < 2, !inputEnded { try refill() }
                // Zeros padding the file to a block (tape and some copy tools write them) hold
                // no records, and gunzip skips them without a word: read through to the end.
                while stream.pointee.avail_in > 0, stream.pointee.next_in[0] == 0 {
                    stream.pointee.next_in += 1
                    stream.pointee.avail_in -= 1
                    if stream.pointee.avail_in == 0, !inputEnded { try refill() }
                }
                if stream.pointee.avail_in == 0 {
                    finished = true
                    return 0
                }
                guard stream.pointee.avail_in >= 2, stream.pointee.next_in[0] == 0x1F, stream.pointee.next_in[1] == 0x8B else {
                    throw InputError.unreadable(
                        path: path,
                        reason: "data after the end of the gzip stream at byte \(consumed) is not gzip "
                            + "(lines appended uncompressed?): gunzip ignores it, and its records would be lost")
                }
                inflateReset(stream)
                betweenMembers = false
            }
            if stream.pointee.avail_in == 0, !inputEnded { try refill() }
            switch inflate(stream, Z_NO_FLUSH) {
            case Z_OK:
                continue
            case Z_STREAM_END:
                betweenMembers = true
            case Z_BUF_ERROR where stream.pointee.avail_in == 0 && inputEnded:
                throw InputError.unreadable(
                    path: path, reason: "the gzip file is truncated (unexpected end of file): records past the cut are missing")
            case Z_BUF_ERROR:
                continue
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "unknown error"
                throw InputError.unreadable(path: path, reason: "not a valid gzip file: \(message)")
            }
        }
        return Int(wanted - stream.pointee.avail_out)
    }

    /// The offset in the file of the first byte inflate has not used: how much of the file was
    /// decompressed so far.
    var consumed: Int { inputOffset + inputCount - Int(stream.pointee.avail_in) }

    /// Reads more of the file after the bytes inflate has not used yet, which move to the front;
    /// sets `inputEnded` at the file's end.
    private func refill() throws(InputError) {
        let unread = Int(stream.pointee.avail_in)
        let used = inputCount - unread
        if unread > 0, used > 0 { memmove(input, input + used, unread) }
        inputOffset += used
        inputCount = unread
        while true {
            let got = FileBytes.systemRead(descriptor, input + inputCount, Self.inputSize - inputCount)
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw InputError.unreadable(path: path, reason: String(cString: strerror(errno))) }
            if got == 0 { inputEnded = true }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(start: input + inputCount, count: got))
            inputCount += got
            break
        }
        stream.pointee.next_in = input
        stream.pointee.avail_in = UInt32(inputCount)
    }
}
