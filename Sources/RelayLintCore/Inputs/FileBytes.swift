import Crypto
import Foundation

/// Reads input files in large blocks, hashing them on the way, so a log never has to be held in
/// memory as a whole and its SHA-256 costs no second pass.
struct FileBytes {
    static let blockSize = 4 << 20

    /// Calls `body` with each complete line (without its `\n` or `\r\n`) and its 1-based number,
    /// and returns the hex SHA-256 of the whole file.
    static func forEachLine(
        path: String, _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void
    ) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw InputError.unreadable(path: path, reason: FileBytes.openFailureReason(path))
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        var carry: [UInt8] = []
        var lineNumber = 0
        func emit(_ line: UnsafeBufferPointer<UInt8>) throws {
            lineNumber += 1
            var count = line.count
            if count > 0, line[count - 1] == 0x0D { count -= 1 }
            var start = 0
            if lineNumber == 1, count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF { start = 3 }
            try body(UnsafeBufferPointer(rebasing: line[start..<count]), lineNumber)
        }
        while true {
            let block: Data
            do {
                block = try handle.read(upToCount: blockSize) ?? Data()
            } catch {
                throw InputError.unreadable(path: path, reason: error.localizedDescription)
            }
            if block.isEmpty { break }
            hasher.update(data: block)
            try block.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                var lineStart = 0
                while let newline = FileBytes.indexOfNewline(in: bytes, from: lineStart) {
                    if carry.isEmpty {
                        try emit(UnsafeBufferPointer(rebasing: bytes[lineStart..<newline]))
                    } else {
                        carry.append(contentsOf: bytes[lineStart..<newline])
                        try carry.withUnsafeBufferPointer { try emit($0) }
                        carry.removeAll(keepingCapacity: true)
                    }
                    lineStart = newline + 1
                }
                carry.append(contentsOf: bytes[lineStart...])
            }
        }
        if !carry.isEmpty { try carry.withUnsafeBufferPointer { try emit($0) } }
        return FileBytes.hex(hasher.finalize())
    }

    /// Reads a whole (small) file: account exports, manifests, rules, configuration.
    static func read(path: String) throws(InputError) -> (data: Data, sha256: String) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError.unreadable(path: path, reason: openFailureReason(path))
        }
        return (data, sha256(of: data))
    }

    static func sha256(of data: Data) -> String { hex(SHA256.hash(data: data)) }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        for byte in digest {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func indexOfNewline(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        let base = bytes.baseAddress! + start
        guard let found = memchr(base, 0x0A, bytes.count - start) else { return nil }
        return start + (UnsafeRawPointer(found) - UnsafeRawPointer(base))
    }

    private static func openFailureReason(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) { return "no such file" }
        return isDirectory.boolValue ? "is a directory" : "permission denied"
    }

    /// 1-based line and column (in Unicode scalars) of a byte offset, for syntax errors.
    static func lineAndColumn(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        for index in 0..<end where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        var column = 1
        for index in lineStart..<end where bytes[index] & 0xC0 != 0x80 { column += 1 }
        return (line, column)
    }
}
