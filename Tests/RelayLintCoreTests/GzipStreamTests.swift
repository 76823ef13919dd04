import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// A gzip input is read to the end of its last member, and whatever follows that is not
/// another member is an error: zlib's `gzread` dropped it without a word.
@Suite struct GzipStreamTests {
    /// `text` compressed by the system's `gzip`, as one member.
    private static func gzip(_ text: String) throws -> Data {
        let plain = try Fixtures.temporaryFile(named: "member.txt", contents: text)
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-c", plain]
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    private static func write(_ data: Data) throws -> String {
        let path = try Fixtures.temporaryFile(named: "log.jsonl.gz", contents: "")
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Everything a gzip file holds, read in small blocks to cross member boundaries inside one.
    private static func text(of path: String) throws -> String {
        let stream = try GzipStream(path: path)
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 7)
        while true {
            let got = try block.withUnsafeMutableBytes { buffer in
                try stream.read(into: buffer.baseAddress!, count: buffer.count)
            }
            if got == 0 { break }
            bytes += block[..<got]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads `stream` to its end, in blocks of 64 bytes, calling `midway` after the first.
    private static func readToEnd(_ stream: GzipStream, midway: () throws -> Void = {}) throws {
        var block = [UInt8](repeating: 0, count: 64)
        var blocks = 0
        while try block.withUnsafeMutableBytes({ try stream.read(into: $0.baseAddress!, count: $0.count) }) > 0 {
            blocks += 1
            if blocks == 1 { try midway() }
        }
    }

    /// Another file moved over the path while it is read (a download again, a rotation) leaves
    /// the one read without a name: the changed-file error, where hashing the path again paired
    /// the old file's records with the new one's hash at exit 0.
    @Test func aGzipFileReplacedWhileItIsReadIsAnError() throws {
        let path = try Self.write(try Self.gzip(String(repeating: "old line\n", count: 5000)))
        let stream = try GzipStream(path: path)
        try Self.readToEnd(stream) {
            let other = try Self.write(try Self.gzip("new line\n"))
            #expect(rename(other, path) == 0)
        }
        #expect(throws: InputError.changedWhileRead(path: path, how: "")) { try stream.compressedSHA256() }
    }

    /// Read to its end unchanged, a gzip file's hash is that of its compressed bytes.
    @Test func theHashIsOfTheCompressedBytesRead() throws {
        let compressed = try Self.gzip(String(repeating: "a line\n", count: 5000))
        let stream = try GzipStream(path: try Self.write(compressed))
        try Self.readToEnd(stream)
        #expect(try stream.compressedSHA256() == FileBytes.sha256(of: compressed))
    }

    /// A gzip file written to in place while it is read is not the one its hash would describe.
    @Test func aGzipFileWrittenInPlaceWhileItIsReadIsAnError() throws {
        let path = try Self.write(try Self.gzip(String(repeating: "a line\n", count: 5000)))
        let stream = try GzipStream(path: path)
        try Self.readToEnd(stream)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(repeating: 0, count: 512))
        try handle.close()
        #expect(throws: InputError.changedWhileRead(path: path, how: "")) { try stream.compressedSHA256() }
    }

    @Test func concatenatedMembersAreReadInFull() throws {
        let path = try Self.write(try Self.gzip("line 1\nline 2\n") + Self.gzip("line 3\n") + Self.gzip("line 4\n"))
        #expect(try Self.text(of: path) == "line 1\nline 2\nline 3\nline 4\n")
    }

    @Test func plainLinesAfterTheLastMemberAreAnErrorAtTheirByte() throws {
        let member = try Self.gzip("line 1\n")
        let path = try Self.write(member + Data("line 2\n".utf8))
        let error = #expect(throws: InputError.self) { try Self.text(of: path) }
        #expect(
            error?.description
                == "\(path): error: cannot read file: data after the end of the gzip stream at byte \(member.count) is not gzip "
                + "(lines appended uncompressed?): gunzip ignores it, and its records would be lost")
        // A single byte is no exception, nor text after zeros.
        for tail in [Data([0x0A]), Data(repeating: 0, count: 512) + Data("line 2\n".utf8)] {
            let padded = try Self.write(member + tail)
            #expect(throws: InputError.self) { try Self.text(of: padded) }
        }
    }

    /// Zeros after the last member hold no records, and gunzip skips them silently (`gunzip -t`
    /// passes): a file padded to a block is read, not refused.
    @Test func zerosPaddingTheFileAreSkipped() throws {
        let member = try Self.gzip("line 1\n")
        for count in [1, 512, 3 << 20] {
            let padded = try Self.write(member + Data(repeating: 0, count: count))
            #expect(try Self.text(of: padded) == "line 1\n")
        }
    }

    @Test func aFileCutInsideAMemberIsStillTruncated() throws {
        let whole = try Self.gzip(String(repeating: "a line of a log\n", count: 1000)) + Self.gzip("more\n")
        let path = try Self.write(whole.prefix(whole.count - 10))
        let error = #expect(throws: InputError.self) { try Self.text(of: path) }
        #expect(error?.description.contains("the gzip file is truncated (unexpected end of file)") == true)
    }

    /// An export read into memory from a gzip file is refused as soon as it expands far more than
    /// text compresses: a decompression bomb of a few megabytes took 4.2 GB before the cap on
    /// its size refused it. A real export, and a small file of any expansion, are read.
    @Test func aGzipFileThatExpandsLikeABombIsRefusedBeforeItFillsMemory() throws {
        let caps = CappedRead(maxBytes: 64 << 20, kind: "an account export", expansionGrace: 1 << 20)
        let lines = String(repeating: String(repeating: " ", count: 4095) + "\n", count: 2048)  // 8 MiB, about 8 KB compressed
        let bomb = try Self.write(try Self.gzip(#"{"users": ["# + "\n" + lines + "]}"))
        let error = #expect(throws: InputError.self) { try MappedFile(path: bomb, capped: caps) }
        let message = error?.description ?? ""
        #expect(message.hasPrefix("\(bomb):"))
        #expect(message.contains("error: stopped reading: the gzip file expands to more than 200 times the compressed bytes read"))
        #expect(message.contains("decompress it to a file to read it anyway"))
        // Stopped after a megabyte or two of lines, not at the 64 MiB cap: the line is named.
        let line = Int(message.split(separator: ":")[1]) ?? 0
        #expect((200...600).contains(line))

        // Ids and hashes compress a few times, far below the limit.
        var generator = SystemRandomNumberGenerator()
        let users = (0..<20_000).map { _ in
            #"{"localId": "\#(String(generator.next(), radix: 36))", "passwordHash": "\#(String(generator.next(), radix: 16))"}"#
        }
        let export = #"{"users": ["# + users.joined(separator: ",\n") + "]}"
        let real = try Self.write(try Self.gzip(export))
        #expect(try MappedFile(path: real, capped: caps).withBytes { $0.elementsEqual(export.utf8) })
        // Under the grace, a file may expand as much as it likes.
        let small = try Self.write(try Self.gzip(String(repeating: " ", count: 900_000)))
        #expect(try MappedFile(path: small, capped: caps).withBytes(\.count) == 900_000)
    }
}
