import ArgumentParser
import Foundation
import RelayLintCore

/// `relaylint merge`: combines the partials of `check --partition K/N` runs (rendering any
/// format) or the JSON reports of `check --shard K/N` runs into the report a single `check` would
/// have written, and exits as that `check` would have.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the partials of `check --partition K/N` (or the reports of `check --shard K/N`) into one report.",
        discussion: """
            Every partition (or shard) 1…N must be given exactly once, and all must come from the same \
            rules and options. Partitions: give the merge the configuration, rules and manifest of the \
            partition runs, and --sources DIR/sources.json when their inputs came from `relaylint split`; \
            it renders every format. Shards: JSON only. The result is byte for byte the report of one run \
            over all the data, but for one limit of shards' reports: the findings of subjects whose ids \
            are addresses or phone numbers, masked in them, are ordered by their masked ids (run the \
            shards with --show-pii and merge them with --show-pii, or use partitions, to keep one run's \
            order).
            """)

    @Argument(help: ArgumentHelp("The partials or shard reports (JSON), in any order.", valueName: "partial.json"))
    var reports: [String]

    @OptionGroup var rules: RuleOptions

    @OptionGroup(title: "Turning rules on and off") var selection: RuleSelection

    @Option(name: .customLong("manifest"), help: ArgumentHelp("The app manifest the partitions were checked with.", valueName: "file"))
    var manifestPath: String?

    @Option(
        help: ArgumentHelp(
            "The original exports and logs of the partitions (`relaylint split` writes DIR/sources.json): the report names them.",
            valueName: "sources.json"))
    var sources: String?

    @Option(
        name: .customLong("relay-domain"),
        help: ArgumentHelp("A private-relay email domain, as given to the partition runs; repeatable.", valueName: "domain"))
    var relayDomains: [String] = []

    /// Said again at the merge: partials of `--show-pii` runs hold addresses unmasked, and the
    /// merged report (forwarded further than a partial) shows them only when asked here too.
    @Flag(
        name: .customLong("show-pii"),
        help:
            "The partition runs (or shards) were given --show-pii: the merged report shows addresses and phone numbers unmasked."
    )
    var showPII = false

    @Flag(name: .customLong("no-suppressions"), help: "Ignore suppressions, as the partition runs did.")
    var noSuppressions = false

    @Option(help: ArgumentHelp("The baseline the partition runs were given.", valueName: "report.json"))
    var baseline: String?

    @Option(help: ArgumentHelp("Output format: \(ReporterRegistry.identifiers.joined(separator: ", ")).", valueName: "format"))
    var format: String = "json"

    @OptionGroup(title: "Reports") var reporting: ReportOutputOptions

    func validate() throws {
        guard !ArgumentChecks.areHeldBack else { return }
        try ClosedStandardInput.refuse(reports + [sources, manifestPath, baseline])
        if reporting.failOn != "never" && Severity(rawValue: reporting.failOn) == nil {
            throw ValidationError("--fail-on must be error, warning, note or never; found '\(reporting.failOn)'")
        }
        for identifier in [format] + reporting.extraReports.map({ String($0.prefix { $0 != "=" }) })
        where ReporterRegistry.reporter(for: identifier) == nil {
            throw ValidationError("unknown format '\(identifier)'; expected one of \(ReporterRegistry.identifiers.joined(separator: ", "))")
        }
        for entry in reporting.extraReports where !entry.contains("=") {
            throw ValidationError("--report takes FORMAT=FILE, e.g. sarif=results.sarif; found '\(entry)'")
        }
        try reporting.refuseExtraReportsOnStandardOutput()
        try reporting.refuseDateThatIsNotADay()
        for domain in relayDomains {
            if let problem = RelayDomains.problem(with: domain) {
                throw ValidationError("--relay-domain '\(StandardError.escaped(domain))' \(problem)")
            }
        }
        // A report written over a partial destroys a partition's run.
        var inputs: [(option: String, path: String)] = reports.map { ("partial", $0) } + rules.paths.map { ("--rules", $0) }
        for (option, path) in [("--sources", sources), ("--manifest", manifestPath), ("--baseline", baseline)] {
            if let path { inputs.append((option, path)) }
        }
        if let config = rules.configurationFile { inputs.append(("--config", config)) }
        inputs += try reporting.filesOfDefinitionFolders(rules: rules.paths.map { ("--rules", $0) }, mappings: [])
        try reporting.checkOverwritesNothing(inputs: inputs)
    }

    func run() throws {
        // As `check` does: a missing or cut partial leaves no report standing for the run.
        try reporting.removingEarlierReportsOnFailure { try merge(failureRemovesEarlierReports: &$0) }
    }

    /// The merge. `failureRemovesEarlierReports` is set, as `check` sets it, while every file it
    /// reads is known not to be a report's destination and no report has been written: the
    /// partials are known from `validate`, rule files in folders once they load.
    private func merge(failureRemovesEarlierReports: inout Bool) throws {
        let configuration = try rules.configuration()
        failureRemovesEarlierReports = reporting.reportsLieOutside(rules.paths + (configuration?.rulePaths ?? []))
        var inputs: [(path: String, data: Data)] = []
        for path in reports {
            // Mapped, not read (`MergeInputHeader.mapFile`). A pipe (`<(gsutil cat …)`) cannot be
            // mapped, and is read to its end.
            // (Asked before opening: a pipe opened twice would wait for a second writer.)
            let isRegular = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType == .typeRegular
            var data: Data?
            if isRegular {
                data = MergeInputHeader.mapFile(path: path)
            } else if FileManager.default.isReadableFile(atPath: path),
                (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType != .typeDirectory
            {
                // Nothing to read (`/dev/null`) is an empty partial, which the reading below
                // refuses as one, not a file that could not be opened.
                do {
                    data = try MergeInputHeader.readStream(path: path)
                } catch {
                    StandardError.write(error.diagnostics)
                    throw ExitCode(ExitStatus.invalidInput)
                }
            }
            guard let data else {
                StandardError.write("\(StandardError.escaped(path)): error: cannot read the partial: \(InputError.reason(opening: path))")
                throw ExitCode(ExitStatus.invalidInput)
            }
            inputs.append((path, data))
        }
        // A partial's keys are sorted: even a truncated one starts with its first key. That is
        // asked first: decoding to find out scans the whole file (36 MB a partial at 10M events).
        let partitionMode = inputs.map { input in
            ["{\"dataEnd\"", "{\"evaluation\""].contains { input.data.starts(with: Data($0.utf8)) }
                || MergeInputHeader.read(input.data)?.isPartial == true
        }
        if partitionMode.contains(true) {
            if let index = partitionMode.firstIndex(of: false) {
                let path = inputs[index].path
                let isShard = MergeInputHeader.read(inputs[index].data)?.isShard == true
                let what = isShard ? "a shard report (--shard); it cannot be merged with partition partials (--partition)" : nil
                if let what {
                    StandardError.write("\(StandardError.escaped(path)): error: is \(what)")
                    throw ExitCode(ExitStatus.invalidInput)
                }
            }
            try mergePartitions(inputs, configuration: configuration, failureRemovesEarlierReports: &failureRemovesEarlierReports)
        } else {
            try mergeShards(inputs)
        }
    }

    private func mergePartitions(
        _ inputs: [(path: String, data: Data)], configuration: Configuration?, failureRemovesEarlierReports: inout Bool
    ) throws {
        let partials: [(path: String, report: PartitionReport)]
        do {
            partials = try PartitionMerger.read(inputs, parallelism: ProcessInfo.processInfo.activeProcessorCount)
        } catch {
            StandardError.write(error.diagnostics)
            throw ExitCode(ExitStatus.invalidInput)
        }
        guard let first = partials.first else {
            StandardError.write([Diagnostic(.error, "no partials to merge", at: SourceLocation(file: ""))])
            throw ExitCode(ExitStatus.invalidInput)
        }
        let ruleSet = try rules.load(configuration: configuration, selection: selection)
        // The rule files read from a folder or named by the configuration are known only now.
        try reporting.checkOverwritesNothing(inputs: ReportOutputOptions.loadedFiles(rules: ruleSet, mappings: []))
        failureRemovesEarlierReports = true
        // What only shapes the partitions' own reading, or is fixed by them, comes from them.
        var request = LintRequest(
            manifestPath: manifestPath, rules: ruleSet, skipInvalid: first.report.settings.skipInvalid,
            showPII: showPII)
        request.asOfDay = first.report.settings.asOfDay
        if let domains = configuration?.relayDomains { request.relayDomains = RelayDomains(domains) }
        if !relayDomains.isEmpty { request.relayDomains = RelayDomains(relayDomains) }
        if let configuration, !noSuppressions { request.suppressions = configuration.suppressions }
        let report: LintReport
        do {
            if let baseline { request.baselineFingerprints = try Baseline.fingerprints(ofReport: baseline) }
            let sources = try sources.map { path throws(DiagnosticsError) in try readSources(path) }
            let evaluation = try PartitionMerger.merge(
                partials, sources: sources, settings: PartitionSettings(request),
                rules: Dictionary(ruleSet.rules.map { ($0.id, $0.severity) }, uniquingKeysWith: { first, _ in first }),
                appRules: Set(ruleSet.rules.filter { $0.scope == .app }.map(\.id)),
                toolVersion: request.toolVersion)
            report = try Linter.report(merging: evaluation, request: request)
        } catch {
            StandardError.write(error.diagnostics)
            throw ExitCode(ExitStatus.invalidInput)
        }
        failureRemovesEarlierReports = false
        let options = ReportOptions(title: reporting.title, reviewer: reporting.reviewer, date: reporting.date)
        let targets =
            [(format, reporting.output)]
            + reporting.extraReports.map { entry in
                let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                return (parts[0], Optional(parts[1]))
            }
        for (identifier, path) in targets {
            let reporter = ReporterRegistry.reporter(for: identifier)!
            guard let path else {
                try StandardOutput.write { reporter.write(report, options: options, to: $0) }
                continue
            }
            do {
                try ReportBytes.write(toPath: path) { reporter.write(report, options: options, to: $0) }
            } catch {
                StandardError.write("\(StandardError.escaped(path)): error: cannot write report: \(error.localizedDescription)")
                throw ExitCode(ExitStatus.invalidInput)
            }
            StandardError.write(
                "relaylint: merged \(Plural.counted(partials.count, "partition")) into \(identifier) report \(StandardError.escaped(path)) (\(Plural.counted(report.summary.findings, "finding")))"
            )
        }
        try reporting.appendStepSummary(of: report, format: format)
        ReportOutputOptions.warnOfExpiredSuppressions(in: report)
        if report.fails(at: reporting.failOn == "never" ? nil : Severity(rawValue: reporting.failOn)) {
            throw ExitCode(ExitStatus.findings)
        }
    }

    private func readSources(_ path: String) throws(DiagnosticsError) -> PartitionMerger.Sources {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DiagnosticsError([
                Diagnostic(.error, "cannot read the sources: \(InputError.reason(opening: path))", at: SourceLocation(file: path))
            ])
        }
        return try PartitionMerger.readSources(data, path: path)
    }

    private func mergeShards(_ inputs: [(path: String, data: Data)]) throws {
        if format != "json" || !reporting.extraReports.isEmpty {
            StandardError.write("relaylint: shard reports merge into JSON only; partition runs (--partition) render every format")
            throw ExitCode(ExitStatus.invalidInput)
        }
        let merged: ShardMerger.Merged
        do {
            merged = try ShardMerger.merge(inputs, showPII: showPII)
        } catch {
            StandardError.write(error.diagnostics)
            throw ExitCode(ExitStatus.invalidInput)
        }
        if let output = reporting.output {
            do {
                try ReportBytes.write(toPath: output, ReportBytes.pieces(of: merged.json))
            } catch {
                StandardError.write("\(StandardError.escaped(output)): error: cannot write report: \(error.localizedDescription)")
                throw ExitCode(ExitStatus.invalidInput)
            }
            StandardError.write(
                "relaylint: merged \(Plural.counted(reports.count, "shard report")) into \(StandardError.escaped(output)) (\(Plural.counted(merged.findingCount, "finding")))"
            )
        } else {
            try StandardOutput.write(merged.json)
        }
        if merged.fails(at: reporting.failOn == "never" ? nil : Severity(rawValue: reporting.failOn)) {
            throw ExitCode(ExitStatus.findings)
        }
    }
}
