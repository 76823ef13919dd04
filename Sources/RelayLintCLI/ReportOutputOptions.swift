import ArgumentParser
import RelayLintCore

/// Where reports go and how audit reports are labelled, and when the run fails: shared by
/// `check` and `merge`, which write the same reports from one evaluation or from its partials.
struct ReportOutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Option(
        name: .customLong("report"),
        help: ArgumentHelp(
            "Also write a report in another format, from the same evaluation: FORMAT=FILE (e.g. sarif=results.sarif); repeatable.",
            valueName: "format=file"))
    var extraReports: [String] = []

    @Option(help: ArgumentHelp("Title of audit reports (html, markdown).", valueName: "text"))
    var title: String = ReportOptions().title

    @Option(help: ArgumentHelp("Reviewer named in audit reports.", valueName: "name"))
    var reviewer: String?

    @Option(help: ArgumentHelp("Date printed in audit reports, e.g. 2026-07-01 (reports never read the clock).", valueName: "date"))
    var date: String?

    @Option(
        name: .customLong("fail-on"),
        help: ArgumentHelp(
            "Exit with 1 when a finding has this severity or a higher one: error, warning, note, never.", valueName: "severity"))
    var failOn: String = "error"
}
