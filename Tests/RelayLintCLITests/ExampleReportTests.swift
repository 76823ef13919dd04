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
}
