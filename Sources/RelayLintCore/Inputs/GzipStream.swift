import CZlib
import Crypto
import Foundation

/// A gzip-compressed input read as the text it holds: Cloud Storage sinks and log archives are
/// `.jsonl.gz`, and decompressing them to a file first would be the only step of a pipeline that
/// needs disk. Recognised by its magic bytes, not its name. zlib reads concatenated members as
/// one stream, as `gunzip` does. The file's hash in reports is that of the compressed file.
final class GzipStream {
    private let file: gzFile
    let path: String

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
        guard let file = gzopen(path, "rb") else { throw InputError.unreadable(path: path, reason: FileBytes.openFailureReason(path)) }
        gzbuffer(file, 1 << 20)
        self.file = file
    }

    deinit { gzclose(file) }

    /// The SHA-256 of the compressed file itself: the report lists each original file with its
    /// hash, and the file a reviewer can check with `sha256sum` is the `.gz` they were given.
    static func sha256(ofCompressedFile path: String) throws(InputError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw InputError.unreadable(path: path, reason: FileBytes.openFailureReason(path))
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        do {
            while let block = try handle.read(upToCount: FileBytes.blockSize), !block.isEmpty { hasher.update(data: block) }
        } catch {
            throw InputError.unreadable(path: path, reason: FileBytes.readFailureReason(path, error))
        }
        return FileBytes.hex(hasher.finalize())
    }

    /// Up to `count` decompressed bytes into `buffer`; 0 at the end.
    ///
    /// A file that ends inside a member (a writer that died, a copy cut short) is an error at its
    /// end: zlib hands out what it could decompress and then reports 0 bytes as at a real end,
    /// and the records past the cut were lost without a word.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(InputError) -> Int {
        let got = gzread(file, buffer, UInt32(min(count, Int(Int32.max))))
        var code: Int32 = 0
        var message = gzerror(file, &code).map { String(cString: $0) } ?? "unknown error"
        // zlib starts its message with the path, which the error names already.
        if message.hasPrefix(path + ": ") { message.removeFirst(path.count + 2) }
        guard got >= 0 else { throw InputError.unreadable(path: path, reason: "not a valid gzip file: \(message)") }
        if got == 0, code == Z_BUF_ERROR {
            throw InputError.unreadable(path: path, reason: "the gzip file is truncated (\(message)): records past the cut are missing")
        }
        return Int(got)
    }

    /// Up to `limit` decompressed bytes from the start.
    static func prefix(path: String, limit: Int) throws(InputError) -> [UInt8] {
        Array(try read(path: path, limit: limit))
    }

    private static func read(path: String, limit: Int) throws(InputError) -> Data {
        let stream = try GzipStream(path: path)
        let blockSize = 1 << 20
        let block = UnsafeMutableRawPointer.allocate(byteCount: blockSize, alignment: 16)
        defer { block.deallocate() }
        var data = Data()
        while data.count < limit {
            let got = try stream.read(into: block, count: min(blockSize, limit - data.count))
            if got == 0 { break }
            data.append(block.assumingMemoryBound(to: UInt8.self), count: got)
        }
        return data
    }
}
