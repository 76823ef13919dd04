import Foundation
@testable import RelayLintCore
import RelayLintTestSupport
import Testing

/// `--events DIR`: a folder stands for the files under it, in the order a sink wrote them.
@Suite struct InputFolderTests {
    static func make(_ files: [String], in folder: URL) throws {
        for file in files {
            let url = folder.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}\n".utf8).write(to: url)
        }
    }

    /// Compared folder by folder: `2026/01/02/…` before `2026/01/10/…`, and `a/z` before `a-b`
    /// (compared as whole strings, `-` sorts before `/`).
    @Test func filesComeInPathOrderFolderByFolder() throws {
        let folder = try Fixtures.temporaryDirectory()
        try Self.make(["2026/01/10/00:00:00_00:59:59_S0.json", "2026/01/02/23:00:00_23:59:59_S0.json", "a-b.json", "a/z.json"], in: folder)
        let files = try InputFolder.files(at: folder.path).map { String($0.dropFirst(folder.path.count + 1)) }
        #expect(files == ["2026/01/02/23:00:00_23:59:59_S0.json", "2026/01/10/00:00:00_00:59:59_S0.json", "a/z.json", "a-b.json"])
    }

    @Test func hiddenFilesAndFoldersAreLeftOut() throws {
        let folder = try Fixtures.temporaryDirectory()
        try Self.make(["logs.jsonl", ".DS_Store", ".git/config", "day/.partial.jsonl"], in: folder)
        #expect(try InputFolder.files(at: folder.path) == [folder.path + "/logs.jsonl"])
    }

    @Test func aFileStandsForItself() throws {
        let path = try Fixtures.temporaryFile(named: "events.jsonl", contents: "{}\n")
        #expect(try InputFolder.files(at: path) == [path])
        #expect(try InputFolder.files(at: "-") == ["-"])
    }

    /// A mistyped or empty folder would pass a check with no evidence.
    @Test func aFolderOfNoFileIsAnError() throws {
        let folder = try Fixtures.temporaryDirectory()
        try Self.make([".DS_Store"], in: folder)
        #expect(
            throws: InputError.unreadable(
                path: folder.path, reason: "the folder holds no file to read as a log (hidden files are left out)")
        ) {
            try InputFolder.files(at: folder.path)
        }
    }

    /// A link to a device or a pipe would be read until its writer stops; a broken link is a
    /// file that is gone.
    @Test func aLinkToADeviceOrNowhereIsAnErrorNamingIt() throws {
        for target in ["/dev/zero", "/nonexistent/relaylint"] {
            let folder = try Fixtures.temporaryDirectory()
            try Self.make(["a.jsonl"], in: folder)
            try FileManager.default.createSymbolicLink(atPath: folder.path + "/b.jsonl", withDestinationPath: target)
            #expect(throws: InputError.self) { try InputFolder.files(at: folder.path) }
            do {
                _ = try InputFolder.files(at: folder.path)
            } catch {
                #expect(error.description.hasPrefix(folder.path + "/b.jsonl: error: cannot read file: not a regular file"))
            }
        }
    }

    /// A link back to a folder above is followed once, not forever.
    @Test func aFolderReachedTwiceIsReadOnce() throws {
        let folder = try Fixtures.temporaryDirectory()
        try Self.make(["day/a.jsonl"], in: folder)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/day/loop", withDestinationPath: folder.path)
        #expect(try InputFolder.files(at: folder.path) == [folder.path + "/day/a.jsonl"])
    }

    /// A name that is not UTF-8 cannot be opened by a name read as text: refused, named with its
    /// bytes (review 66, item 10); it was called "not a regular file".
    @Test func aNameThatIsNotUTF8IsAnErrorNamingItsBytes() throws {
        let folder = try Fixtures.temporaryDirectory()
        try Self.make(["a.jsonl"], in: folder)
        let bytes = Array((folder.path + "/caf").utf8) + [0xE9] + Array(".jsonl".utf8) + [0]
        let descriptor = bytes.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644)
        }
        try #require(descriptor >= 0)
        close(descriptor)
        #expect(
            throws: InputError.unreadable(
                path: folder.path + "/caf\\xE9.jsonl",
                reason: "the file's name is not UTF-8 text, which relaylint cannot open by name; rename it")
        ) {
            try InputFolder.files(at: folder.path)
        }
    }

    /// A file is read as one of a folder's logs when it lies under it and no name on the way is
    /// hidden: a report written at a hidden path is never read (review 66, item 9).
    @Test(arguments: [
        ("report.json", true), ("2026/01/report.json", true), (".report.json", false), (".reports/r.json", false),
        ("day/.r.json", false), ("../report.json", false),
    ])
    func aFileIsReadUnderAFolderUnlessHidden(relative: String, read: Bool) throws {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("sink")
        try Self.make(["2026/01/a.jsonl", "day/b.jsonl"], in: folder)
        #expect(InputFolder.reads(folder.path + "/" + relative, under: folder.path) == read)
    }

    /// The walk follows a link by its own name: a report at `visible/` linked to a hidden
    /// folder (and so in that folder), or in a folder outside linked into it, is read by it; one
    /// in a folder not yet made under it too (review 67, item 5).
    @Test func aFileIsReadThroughALinkAsTheWalkFollowsIt() throws {
        let root = try Fixtures.temporaryDirectory()
        let folder = root.appendingPathComponent("sink")
        try Self.make(["a.jsonl", ".hidden/b.jsonl", ".git/config", "../real/c.jsonl"], in: folder)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/visible", withDestinationPath: folder.path + "/.hidden")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/hour01", withDestinationPath: root.path + "/real")
        #expect(InputFolder.reads(folder.path + "/visible/report.json", under: folder.path))
        #expect(InputFolder.reads(root.path + "/real/report.json", under: folder.path))
        #expect(InputFolder.reads(folder.path + "/new/day/report.json", under: folder.path))
        #expect(InputFolder.reads(folder.path + "/.hidden/report.json", under: folder.path))
        #expect(!InputFolder.reads(folder.path + "/.git/report.json", under: folder.path))
        #expect(!InputFolder.reads(folder.path + "/new/.day/report.json", under: folder.path))
        #expect(!InputFolder.reads(root.path + "/report.json", under: folder.path))
    }
}
