import Foundation
import RelayLintTestSupport
import Testing

/// `--events DIR`: a Cloud Storage sink's folder is checked as the files under it would be,
/// each listed in the report with its own hash.
@Suite struct LogFolderTests {
    static let common = CompressedAndStandardInputTests.common
    static let logs = [
        "Examples/real-logs/backend.jsonl", "Examples/real-logs/identity-platform.jsonl", "Examples/real-logs/audit-logs.json",
        "Examples/real-logs/apple-notifications.jsonl",
    ]

    /// The logs copied into a sink's folders of days, in the order they are named one by one.
    static func sinkFolder() throws -> URL {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("sink")
        for (day, log) in logs.enumerated() {
            let target = folder.appendingPathComponent("2026/06/0\(day + 1)/" + (log as NSString).lastPathComponent)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Fixtures.path(log), toPath: target.path)
        }
        try Data("not a log".utf8).write(to: folder.appendingPathComponent(".DS_Store"))
        return folder
    }

    static func inputs(_ result: CommandRunner.Result) throws -> [String] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return (report["inputs"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "events" }.map { "\($0["path"]!)" }
    }

    @Test func aFolderGivesTheFindingsOfItsFilesNamedOneByOne() throws {
        let folder = try Self.sinkFolder()
        let named = try CommandRunner.run(Self.common + Self.logs.flatMap { ["--events", $0] })
        let listed = try CommandRunner.run(Self.common + ["--events", folder.path])
        #expect(named.status == 1 && listed.status == 1, "\(listed.stderr)")
        #expect(try CompressedAndStandardInputTests.findings(listed) == CompressedAndStandardInputTests.findings(named))
        #expect(
            try Self.inputs(listed)
                == Self.logs.enumerated().map { "\(folder.path)/2026/06/0\($0 + 1)/\(($1 as NSString).lastPathComponent)" })
    }

    /// `--events-format` given once per `--events` goes to each file of its folder.
    @Test func aFormatGivenForAFolderIsEachOfItsFiles() throws {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("backend")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for day in 1...2 {
            try FileManager.default.copyItem(
                atPath: Fixtures.path("Examples/real-logs/backend.jsonl"), toPath: folder.path + "/day\(day).jsonl")
        }
        let result = try CommandRunner.run(
            Self.common + [
                "--events", "Examples/events.jsonl", "--events", folder.path, "--events-format", "relaylint", "--events-format",
                "relaylint",
            ])
        // Read as relaylint events, the backend's lines lack `id`: invalid, told at the folder's first file.
        #expect(result.status == 2)
        #expect(result.stderr.contains(folder.path + "/day1.jsonl:1:"), "\(result.stderr)")
    }

    /// `init` surveys a folder's files as `check` reads them, and the command it prints keeps
    /// the folder.
    @Test func initSurveysTheFilesOfAFolder() throws {
        let folder = try Self.sinkFolder()
        let output = try Fixtures.temporaryDirectory()
        let result = try CommandRunner.run(
            ["init", "--accounts", "Examples/accounts.json", "--events", folder.path, "--output-directory", output.path]
                + ["--mapping", "Examples/real-logs/backend-mapping.yml", "--mapping", "Examples/real-logs/cloud-logging-by-app.yml"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("com.sparrownotes.recipes: creates accounts"), "\(result.stdout)")
        #expect(result.stdout.contains("--events \(folder.path) "), "\(result.stdout)")
    }

    @Test func anEmptyFolderIsInvalidInputNamingIt() throws {
        let folder = try Fixtures.temporaryDirectory()
        let result = try CommandRunner.run(["check", "--events", folder.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(folder.path): error: cannot read file: the folder holds no file to read as a log"))
    }

    /// Written there, the report would be read as a log by the next run.
    @Test func aReportInsideTheFolderIsRefused() throws {
        let folder = try Self.sinkFolder()
        let result = try CommandRunner.run(Self.common + ["--events", folder.path, "--output", folder.path + "/2026/report.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("lies inside the folder --events"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/2026/report.json"))
    }

    /// A report path outside the folder that is a link to one of its logs (a `latest.json`
    /// symbolic link, a hard-linked snapshot) is that log: refused, the log left as it was.
    @Test(arguments: ["symbolic", "hard"]) func aReportThatIsALinkToALogOfTheFolderIsRefused(link: String) throws {
        let folder = try Self.sinkFolder()
        let log = folder.path + "/2026/06/01/backend.jsonl"
        let before = try Data(contentsOf: URL(fileURLWithPath: log))
        let report = try Fixtures.temporaryDirectory().appendingPathComponent("latest.sarif").path
        if link == "symbolic" {
            try FileManager.default.createSymbolicLink(atPath: report, withDestinationPath: log)
        } else {
            try FileManager.default.linkItem(atPath: log, toPath: report)
        }
        let result = try CommandRunner.run(Self.common + ["--events", folder.path, "--report", "sarif=\(report)"])
        #expect(result.status == 2)
        // A symbolic link is followed into the folder; a hard link is the log itself.
        let refusal =
            link == "symbolic" ? "lies inside the folder --events" : "is the input --events '\(log)': the report would overwrite it"
        #expect(result.stderr.contains(refusal), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
    }

    /// A report path that is a dangling link into the folder would create the report there, where
    /// the next run reads it as a log: refused as a report inside the folder.
    @Test func aReportThroughADanglingLinkIntoTheFolderIsRefused() throws {
        let folder = try Self.sinkFolder()
        let link = try Fixtures.temporaryDirectory().appendingPathComponent("latest.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.path + "/2026/latest.json")
        let result = try CommandRunner.run(Self.common + ["--events", folder.path, "--output", link])
        #expect(result.status == 2)
        #expect(result.stderr.contains("lies inside the folder --events"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/2026/latest.json"))
    }

    /// A hidden report is never read as a log of the folder: written (review 66, item 9).
    @Test func aHiddenReportInsideTheFolderIsWritten() throws {
        let folder = try Self.sinkFolder()
        let result = try CommandRunner.run(Self.common + ["--events", folder.path, "--output", folder.path + "/.report.json"])
        #expect(result.status == 1, "\(result.stderr)")
        let again = try CommandRunner.run(Self.common + ["--events", folder.path])
        #expect(try Self.inputs(again).count == Self.logs.count)
    }

    /// `init --events .` wrote its manifest into the folder, and the command it printed then
    /// read the manifest as a log (review 66, item 6): refused, nothing written.
    @Test func initRefusesToWriteItsManifestIntoAFolderOfLogs() throws {
        let folder = try Self.sinkFolder()
        let result = try CommandRunner.run(["init", "--accounts", Fixtures.path("Examples/accounts.json"), "--events", "."], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("relaylint-apps.yml: error: would be written inside the folder --events '.'"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/relaylint-apps.yml"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/.relaylint.yml"))
    }
}
