import RelayLintCore
import RelayLintTestSupport
import Testing

/// The checked-in reports under Examples/reports are what the tool produces on Examples/, in
/// every format the registry knows.
@Suite struct ExampleReportTests {
    static let exampleArguments = [
        "check", "--config", "Examples/.relaylint.yml", "--accounts", "Examples/accounts.json",
        "--events", "Examples/events.jsonl", "--manifest", "Examples/manifest.yml", "--as-of", "2026-07-01",
    ]

    @Test(arguments: ReporterRegistry.identifiers)
    func exampleReportMatchesGoldenFile(format: String) throws {
        let reporter = try #require(ReporterRegistry.reporter(for: format))
        let result = try CommandRunner.run(
            Self.exampleArguments + ["--format", format, "--date", "2026-07-01", "--reviewer", "Example Reviewer"])
        #expect(result.status == 1, "the examples contain violations: \(result.stderr)")
        let diff = Golden.compare(result.stdout, toFile: "Examples/reports/report.\(reporter.fileExtension)")
        #expect(diff == nil, "\(diff ?? "")")
    }

    /// The example story in the real formats: its reports are pinned too, so that a change in a
    /// mapping or in how mapped logs are accounted for shows in review.
    static let realLogArguments = [
        "check", "--config", "Examples/.relaylint.yml", "--accounts", "Examples/accounts.json", "--manifest", "Examples/manifest.yml",
        "--as-of", "2026-07-01", "--mapping", "Examples/real-logs/backend-mapping.yml", "--mapping",
        "Examples/real-logs/cloud-logging-by-app.yml", "--apple-keys",
        "Examples/real-logs/apple-keys.json", "--events", "Examples/real-logs/backend.jsonl", "--events",
        "Examples/real-logs/identity-platform.jsonl", "--events", "Examples/real-logs/audit-logs.json", "--events",
        "Examples/real-logs/apple-notifications.jsonl",
    ]

    @Test(arguments: ["json", "text", "markdown", "sarif"])
    func realLogReportMatchesGoldenFile(format: String) throws {
        let reporter = try #require(ReporterRegistry.reporter(for: format))
        let result = try CommandRunner.run(
            Self.realLogArguments + ["--format", format, "--date", "2026-07-01", "--reviewer", "Example Reviewer"])
        #expect(result.status == 1, "the examples contain violations: \(result.stderr)")
        let diff = Golden.compare(result.stdout, toFile: "Examples/real-logs/reports/report.\(reporter.fileExtension)")
        #expect(diff == nil, "\(diff ?? "")")
    }
}
