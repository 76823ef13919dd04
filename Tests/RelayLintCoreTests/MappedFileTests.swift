import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// An export is mapped instead of read, and the pages the reader is done with are let go; what
/// is read does not change.
@Suite struct MappedFileTests {
    @Test func aMappedFileHoldsTheFileAndHashesItAsAReadDoes() throws {
        let text = String(repeating: "0123456789abcdef\n", count: 700_000)  // 11.9 MB: several hash blocks
        let path = try Fixtures.temporaryFile(named: "mapped.txt", contents: text)
        let file = try MappedFile(path: path)
        #expect(file.withBytes { $0.elementsEqual(text.utf8) })
        #expect(file.sha256() == FileBytes.sha256(of: Data(text.utf8)))
        // Hashing let every page go; the bytes read back the same.
        file.release(0..<text.utf8.count)
        #expect(file.withBytes { $0.elementsEqual(text.utf8) })
    }

    @Test func onlyWholePagesInsideARangeAreLetGo() {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        #expect(MappedFile.wholePages(in: 0..<page, size: 3 * page) == 0..<page)
        #expect(MappedFile.wholePages(in: 1..<2 * page, size: 3 * page) == page..<2 * page)
        #expect(MappedFile.wholePages(in: 1..<page, size: 3 * page) == nil)
        #expect(MappedFile.wholePages(in: page..<2 * page - 1, size: 3 * page) == nil)
        // The file's last partial page is never let go (it is not whole).
        #expect(MappedFile.wholePages(in: 0..<3 * page + 10, size: 3 * page + 10) == 0..<3 * page)
    }

    @Test func aFileRewrittenWhileItIsReadIsAnError() throws {
        let path = try Fixtures.temporaryFile(named: "changing.json", contents: #"{"users": []}"#)
        let file = try MappedFile(path: path)
        try file.checkUnchanged()
        try Data(#"{"users": [{"localId": "u1"}]}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: InputError.changedWhileRead(path: path, how: "")) { try file.checkUnchanged() }
    }

    /// A file cut short under its mapping (`logrotate`'s `copytruncate`) no longer ends the
    /// process with SIGBUS at the first page past its new end: the pages read as zeros, and the
    /// file is then told as cut short while it was read.
    @Test func aFileCutShortUnderItsMappingReadsAsZerosAndIsAnError() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let text = String(repeating: "x", count: 3 * page)
        let path = try Fixtures.temporaryFile(named: "cut.jsonl", contents: text)
        let file = try MappedFile(path: path)
        #expect(truncate(path, off_t(page)) == 0)
        // The first page is still the file's; the two after it are past its end.
        #expect(file.withBytes { Array($0[..<page]) } == Array(repeating: UInt8(ascii: "x"), count: page))
        #expect(file.withBytes { $0[page..<(3 * page)].allSatisfy { $0 == 0 } })
        #expect(throws: InputError.changedWhileRead(path: path, how: "it was cut short under relaylint")) { try file.checkUnchanged() }
    }

    /// A partial `merge` maps is read through `Data` that outlives its `MappedFile`: the mapping
    /// and its guard live as long as the `Data`, and a partial cut short meanwhile reads as zeros.
    @Test func aMappedFilesDataKeepsTheMappingAndItsGuard() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let path = try Fixtures.temporaryFile(named: "partial.json", contents: String(repeating: "{", count: 3 * page))
        let data = try #require(MergeInputHeader.mapFile(path: path))
        #expect(truncate(path, off_t(page)) == 0)
        #expect(data.prefix(page).allSatisfy { $0 == UInt8(ascii: "{") })
        #expect(data.dropFirst(page).allSatisfy { $0 == 0 })
    }

    @Test func whatCannotBeMappedIsRead() throws {
        let empty = try MappedFile(path: try Fixtures.temporaryFile(named: "empty.json", contents: ""))
        #expect(empty.withBytes(\.isEmpty))
        #expect(empty.sha256() == FileBytes.sha256(of: Data()))
        // A character device: not a regular file.
        #expect(try MappedFile(path: "/dev/null").withBytes(\.isEmpty))
        // A pipe (`--accounts <(gunzip -c accounts.json.gz)`) has no size to map or read by.
        let fifo = try Fixtures.temporaryDirectory().appendingPathComponent("accounts.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data(#"{"users": []}"#.utf8))
            try? handle.close()
        }
        writer.start()
        #expect(try MappedFile(path: fifo).withBytes { String(decoding: $0, as: UTF8.self) } == #"{"users": []}"#)
        #expect(throws: InputError.unreadable(path: "/nonexistent/accounts.json", reason: "no such file")) {
            try MappedFile(path: "/nonexistent/accounts.json")
        }
    }

    @Test func anExportReadFromAMappingWhosePagesAreLetGoReadsTheSame() throws {
        let export = AccountExportParallelTests.export.replacingOccurrences(
            of: "\"kind\": \"x\"", with: "\"padding\": \"\(String(repeating: "x", count: 20_000))\"")
        let path = try Fixtures.temporaryFile(named: "mapped-accounts.json", contents: export)
        let inOrder = FirebaseJSONExportReader(path: path, parallelism: 1)
        let expected = try inOrder.read(data: Data(export.utf8))
        let file = try MappedFile(path: path)
        var reader = FirebaseJSONExportReader(path: path, parallelism: 4)
        reader.batchSize = 7
        var released: [Range<Int>] = []
        reader.doneWith = { range in
            released.append(range)
            file.release(range)
        }
        var accounts: [AccountRecord] = []
        let invalid = try file.withBytes { bytes throws(InputError) in try reader.read(bytes: bytes) { accounts.append($0) } }
        #expect(accounts == expected.accounts)
        #expect(invalid.listed == expected.invalid)
        // Each of the 43 batches, once handed over, said what it was done with (the scan finds
        // a batch at a time, and has nothing of its own to let go).
        #expect(released.count == 43)
        #expect(released.allSatisfy { !$0.isEmpty && $0.upperBound <= export.utf8.count })
    }

    /// A pipe held until the other inputs are read (`OpenedInput.spooled`) reads as the pipe
    /// did, its first bytes and the rest, and again from its start once rewound; in memory when
    /// the temporary folder takes no file.
    @Test(arguments: [true, false])
    func aSpooledPipeReadsAsThePipeDidAndAgainAfterARewind(writableFolder: Bool) throws {
        let rest = String(repeating: "{\"jti\":\"n\"}\n", count: 200_000)  // 2.6 MB: several blocks
        let source = try Fixtures.temporaryFile(named: "rest.jsonl", contents: rest)
        let opened = OpenedInput(prefix: Array("{\"first\":1}\n".utf8), handle: try #require(FileHandle(forReadingAtPath: source)))
        let folder = writableFolder ? try Fixtures.temporaryDirectory().path : "/nonexistent/folder"
        let spooled = try opened.spooled(path: "-", directory: folder)
        let whole = "{\"first\":1}\n" + rest
        for _ in 0..<2 {
            #expect(try MappedFile(path: "-", opened: spooled).withBytes { $0.elementsEqual(whole.utf8) })
            spooled.rewind()
        }
        // Over the cap, it is refused rather than held.
        let small = OpenedInput(prefix: [], handle: try #require(FileHandle(forReadingAtPath: source)))
        #expect(throws: InputError.self) { try small.spooled(path: "-", directory: folder, limit: 1000) }
    }
}
