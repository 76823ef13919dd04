import ArgumentParser
import Foundation
import RelayLintCore

/// `relaylint check`: the main job.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Evaluate the rules against an account export and action logs, and report the findings.",
        discussion: """
            Examples:
              relaylint check --accounts accounts.json --events events.jsonl --manifest apps.yml
              relaylint check --events a.jsonl --events b.jsonl --format json --output report.json
            """)

    @OptionGroup var rules: RuleOptions

    @OptionGroup(title: "Turning rules on and off") var selection: RuleSelection

    @Option(
        name: .customLong("accounts"),
        help: ArgumentHelp(
            "A Firebase Auth export (`firebase auth:export`), JSON or CSV (by extension); repeatable.", valueName: "file"))
    var accountPaths: [String] = []

    @Option(
        name: .customLong("events"),
        help: ArgumentHelp(
            "An action log, its format recognised from its content: relaylint events, Google Cloud Logging entries (JSON Lines or a gcloud JSON array), Sign in with Apple notifications, or a log a --mapping describes; repeatable. A folder stands for every file under it (a Cloud Storage sink's), in path order; equal timestamps keep the order the files are given in.",
            valueName: "path"))
    var eventPaths: [String] = []

    @Option(
        name: .customLong("events-format"),
        help: ArgumentHelp(
            "Read --events files as this format instead of recognising it: auto, relaylint, or a mapping's id (`relaylint mappings list`). Once for every file, or once per --events, in the same order.",
            valueName: "name"))
    var eventFormats: [String] = []

    @Option(
        name: .customLong("mapping"),
        help: ArgumentHelp(
            "A log mapping of your own (YAML; a file or a folder), tried before the built-in ones; repeatable. Also `mappings:` in the configuration.",
            valueName: "path"))
    var mappingPaths: [String] = []

    @Option(
        name: .customLong("subject-map"),
        help: ArgumentHelp(
            "A CSV of apple_sub,subject rows joining Apple notifications to accounts the export and logs do not.", valueName: "file"))
    var subjectMaps: [String] = []
    var subjectMap: String? { subjectMaps.last }

    @Option(
        name: .customLong("apple-keys"),
        help: ArgumentHelp(
            "Apple's public keys (the JSON Web Key Set of https://appleid.apple.com/auth/keys): every signed notification's signature is checked (decoded claims carry none: a note says so).",
            valueName: "file"))
    var appleKeysPaths: [String] = []
    var appleKeys: String? { appleKeysPaths.last }

    @Option(
        name: .customLong("manifest"),
        help: ArgumentHelp(
            "The app manifest (YAML or JSON): apps: [{bundle_id, creates_accounts, in_app_deletion}].", valueName: "file"))
    var manifestPaths: [String] = []
    var manifestPath: String? { manifestPaths.last }

    @Option(help: ArgumentHelp("Output format: \(ReporterRegistry.identifiers.joined(separator: ", ")).", valueName: "format"))
    var format: String = "text"

    @OptionGroup(title: "Reports") var reporting: ReportOutputOptions

    @Flag(
        name: .customLong("skip-invalid"),
        help: "Count invalid records, list the first 1,000 in the report and go on, instead of stopping with exit code 2.")
    var skipInvalid = false

    @Flag(
        name: .customLong("fail-on-empty"),
        help: "Exit with 2, and write no report, when a log or an account export holds no record (it is always a warning).")
    var failOnEmpty = false

    @Flag(name: .customLong("show-pii"), help: "Show email addresses and phone numbers unmasked (reports are masked by default).")
    var showPII = false

    @Option(
        name: .customLong("relay-domain"),
        help: ArgumentHelp(
            "A private-relay email domain; repeat to replace the default list (privaterelay.appleid.com, private.icloud.com).",
            valueName: "domain"))
    var relayDomains: [String] = []

    @Flag(name: .customLong("no-suppressions"), help: "Ignore suppressions and report every finding (for auditors).")
    var noSuppressions = false

    @Option(
        name: .customLong("baseline"),
        help: ArgumentHelp("An earlier JSON report: report only findings it does not have.", valueName: "report.json"))
    var baselines: [String] = []
    var baseline: String? { baselines.last }

    @Option(
        name: .customLong("as-of"),
        help: ArgumentHelp(
            "The review day for suppression expiry, YYYY-MM-DD (default: today, UTC).", valueName: "date"))
    var asOf: String?

    @Option(help: ArgumentHelp("Colour in text output: auto (only on a terminal), always, never.", valueName: "when"))
    var color: String = "auto"

    @Option(
        help: ArgumentHelp(
            "Threads for evaluation and report writing (default: the number of cores); output does not depend on it.", valueName: "n"))
    var jobs: Int?

    /// More threads than this buy nothing on any machine relaylint runs on, and a huge count
    /// made the run abort allocating per-thread state.
    static let maximumJobs = 1024

    @Option(
        help: ArgumentHelp(
            "Evaluate only the subjects of shard K of N (1-based; FNV-1a of the subject id modulo N) and write a partial JSON report for `relaylint merge`.",
            valueName: "K/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            "Inputs that hold only the subjects of partition K of N (FNV-1a of the subject id modulo N, as `relaylint split` writes them): write a partial report for `relaylint merge`.",
            valueName: "K/N"))
    var partition: String?

    @Option(
        name: .customLong("data-end"),
        help: ArgumentHelp(
            "The latest event time of all the data (RFC 3339), when the inputs are a part of it: windows still open then are pending, as in one run over all the data; empty when the data has no event.",
            valueName: "time"))
    var dataEndOption: String?

    /// `--data-end`, nil when given empty: `split` writes an empty `data-end.txt` for data without
    /// events, and the recipes pass it as `--data-end "$(cat parts/data-end.txt)"`.
    private var dataEnd: String? { dataEndOption?.isEmpty == false ? dataEndOption : nil }

    @Flag(name: .shortAndLong, help: "No progress on standard error (progress shows only on a terminal, never in CI).")
    var quiet = false

    func validate() throws {
        guard !ArgumentChecks.areHeldBack else { return }
        // Each names one file: a second one given would silently replace the first, whose
        // notifications, apps or keys the run would then never see.
        for (option, values) in [
            ("--subject-map", subjectMaps), ("--apple-keys", appleKeysPaths), ("--manifest", manifestPaths), ("--baseline", baselines),
        ] where values.count > 1 {
            throw ValidationError("\(option) is given \(values.count) times: it takes one file (\(values.joined(separator: ", ")))")
        }
        if let partition {
            guard Shard(parsing: partition) != nil else {
                throw ValidationError("--partition takes K/N with 1 ≤ K ≤ N ≤ \(Shard.maximumCount), e.g. 2/4; found '\(partition)'")
            }
            if shard != nil { throw ValidationError("--partition and --shard are two ways to split a run: give one") }
            if format != "json" || !reporting.extraReports.isEmpty {
                throw ValidationError(
                    "--partition writes a partial report: use --format json and render every format with `relaylint merge`")
            }
        }
        if let dataEnd, Timestamp(rfc3339: dataEnd) == nil {
            throw ValidationError("--data-end takes an RFC 3339 time, e.g. 2026-06-30T23:59:59Z; found '\(dataEnd)'")
        }
        if let shard {
            guard Shard(parsing: shard) != nil else {
                throw ValidationError("--shard takes K/N with 1 ≤ K ≤ N ≤ \(Shard.maximumCount), e.g. 2/4; found '\(shard)'")
            }
            let formats = [format] + reporting.extraReports.map { String($0.prefix { $0 != "=" }) }
            if formats.contains(where: { $0 != "json" }) {
                throw ValidationError("--shard writes a partial report: use --format json and combine the shards with `relaylint merge`")
            }
        }
        if eventFormats.count > 1, eventFormats.count != eventPaths.count {
            throw ValidationError(
                "--events-format is given \(eventFormats.count) times for \(eventPaths.count) --events files: give it once for all, or once per file"
            )
        }
        // Read once, standard input has nothing left for a second --events - (which then "held
        // no record").
        let standardInputs = (eventPaths + accountPaths).filter(ClosedStandardInput.isStandardInput).count
        if standardInputs > 1 {
            throw ValidationError(
                "standard input can be read once: give - (or /dev/stdin) at most once, to --events or to --accounts")
        }
        let named = { (option: String, paths: [String]) in paths.map { (option: option, path: $0) } }
        try ArgumentChecks.refuseRepeatedPipes(
            named("--events", eventPaths) + named("--accounts", accountPaths) + named("--mapping", mappingPaths)
                + named("--subject-map", subjectMaps) + named("--apple-keys", appleKeysPaths) + named("--manifest", manifestPaths)
                + named("--baseline", baselines) + named("--rules", rules.paths))
        // The rule options refuse their own (`RuleOptions.validate`).
        try ClosedStandardInput.refuse(eventPaths + accountPaths + mappingPaths + subjectMaps + appleKeysPaths + manifestPaths + baselines)
        // A manifest alone is something to check: an app it says creates accounts must offer
        // in-app deletion (contract §2.4), with no data at all.
        if eventPaths.isEmpty && accountPaths.isEmpty && manifestPaths.isEmpty {
            throw ValidationError("nothing to check: give --events FILE, --accounts FILE and/or --manifest FILE")
        }
        if ReporterRegistry.reporter(for: format) == nil {
            throw ValidationError("unknown format '\(format)'; expected one of \(ReporterRegistry.identifiers.joined(separator: ", "))")
        }
        for entry in reporting.extraReports {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[1].isEmpty else {
                throw ValidationError("--report takes FORMAT=FILE, e.g. sarif=results.sarif; found '\(entry)'")
            }
            if ReporterRegistry.reporter(for: parts[0]) == nil {
                throw ValidationError(
                    "unknown format '\(parts[0])' in --report; expected one of \(ReporterRegistry.identifiers.joined(separator: ", "))")
            }
        }
        try reporting.refuseExtraReportsOnStandardOutput()
        try reporting.refuseDateThatIsNotADay()
        if reporting.failOn != "never" && Severity(rawValue: reporting.failOn) == nil {
            throw ValidationError("--fail-on must be error, warning, note or never; found '\(reporting.failOn)'")
        }
        if !["auto", "always", "never"].contains(color) {
            throw ValidationError("--color must be auto, always or never; found '\(color)'")
        }
        if let jobs, !(1...CheckCommand.maximumJobs).contains(jobs) {
            throw ValidationError("--jobs must be between 1 and \(CheckCommand.maximumJobs); found \(jobs)")
        }
        try ArgumentChecks.requireDay(asOf, option: "--as-of")
        if relayDomains.count > RelayDomains.maximumCount {
            throw ValidationError(
                "--relay-domain is given \(relayDomains.count) times; at most \(RelayDomains.maximumCount) domains are taken (every address is tested against each)"
            )
        }
        for domain in relayDomains {
            if let problem = RelayDomains.problem(with: domain) {
                throw ValidationError("--relay-domain '\(StandardError.escaped(domain))' \(problem)")
            }
        }
        try checkOutputsOverwriteNothing()
    }

    /// A report written over an input destroys it (`--output events.jsonl` replaced the log
    /// with the report): see `ReportOutputOptions.checkOverwritesNothing(inputs:)`.
    func checkOutputsOverwriteNothing() throws {
        var inputs: [(option: String, path: String)] =
            eventPaths.map { ("--events", $0) } + accountPaths.map { ("--accounts", $0) } + mappingPaths.map { ("--mapping", $0) }
            + rules.paths.map { ("--rules", $0) }
        for folder in eventPaths where InputFolder.isFolder(folder) {
            try reporting.refuseReportsInside(folder: folder, option: "--events")
            // A report path elsewhere may still be a link to one of its files (a `latest.json`
            // symbolic link, a hard-linked snapshot): each file counts as an input. A folder that
            // cannot be listed is told when it is read.
            for file in (try? InputFolder.files(at: folder)) ?? [] { inputs.append(("--events", file)) }
        }
        inputs += try reporting.filesOfDefinitionFolders(
            rules: rules.paths.map { ("--rules", $0) }, mappings: mappingPaths.map { ("--mapping", $0) })
        for (option, path) in [
            ("--manifest", manifestPath), ("--subject-map", subjectMap), ("--apple-keys", appleKeys), ("--baseline", baseline),
        ] {
            if let path { inputs.append((option, path)) }
        }
        if let config = rules.configurationFile { inputs.append(("--config", config)) }
        try reporting.checkOverwritesNothing(inputs: inputs)
    }

    /// The log files of `--events`, a folder standing for the files under it (`InputFolder`),
    /// and the format each is read as: a `--events-format` given once per `--events` goes to
    /// each file of its folder.
    private func eventFiles() throws -> (paths: [String], formats: [String]) {
        var paths: [String] = []
        var formats: [String] = []
        for (index, option) in eventPaths.enumerated() {
            let files: [String]
            do {
                files = try InputFolder.files(at: option)
            } catch {
                StandardError.write(error.diagnostics)
                throw ExitCode(ExitStatus.invalidInput)
            }
            paths += files
            if eventFormats.count > 1 { formats += Array(repeating: eventFormats[index], count: files.count) }
        }
        return (paths, eventFormats.count > 1 ? formats : eventFormats)
    }

    func run() throws {
        // A partition run writes a partial, and so removes only a partial an earlier one left.
        try reporting.removingEarlierReportsOnFailure(of: partition == nil ? .report : .partial) {
            try check(failureRemovesEarlierReports: &$0)
        }
    }

    /// The run. `failureRemovesEarlierReports` is set from when every file it reads is known not
    /// to be a report's destination (once the configuration is read) until its reports are
    /// written (a failure after that leaves this run's reports, which stand for its inputs).
    private func check(failureRemovesEarlierReports: inout Bool) throws {
        let configuration = try rules.configuration()
        if let configuration {
            // The configuration's folders, as the command line's are in `validate`.
            let files = try reporting.filesOfDefinitionFolders(
                rules: configuration.rulePaths.map { ("rule_paths (configuration)", $0) },
                mappings: configuration.mappingPaths.map { ("mappings (configuration)", $0) })
            try reporting.checkOverwritesNothing(inputs: files)
        }
        // The options' inputs are known not to be reports (`validate`); the rule and mapping
        // files in folders are known once they load, so a report there is left until then.
        failureRemovesEarlierReports = reporting.reportsLieOutside(
            rules.paths + mappingPaths + (configuration?.rulePaths ?? []) + (configuration?.mappingPaths ?? []) + eventPaths)
        let logs = try eventFiles()
        let ruleSet = try rules.load(configuration: configuration, selection: selection)
        var request = LintRequest(
            // `-` is standard input, named as the system names it in reports.
            eventPaths: logs.paths.map { $0 == "-" ? "/dev/stdin" : $0 }, accountPaths: accountPaths.map { $0 == "-" ? "/dev/stdin" : $0 },
            manifestPath: manifestPath,
            rules: ruleSet,
            skipInvalid: skipInvalid, showPII: showPII)
        if let domains = configuration?.relayDomains { request.relayDomains = RelayDomains(domains) }
        if !relayDomains.isEmpty { request.relayDomains = RelayDomains(relayDomains) }
        if let jobs { request.parallelism = jobs }
        do {
            request.mappings = try MappingSet.load(userPaths: mappingPaths + (configuration?.mappingPaths ?? [])).mappings
            request.appleKeys = try appleKeys.map(SigningKeySet.load(path:))
        } catch {
            StandardError.write(error.diagnostics)
            throw ExitCode(ExitStatus.invalidInput)
        }
        // The rule and mapping files read from a folder or named by the configuration are
        // known only now.
        try reporting.checkOverwritesNothing(inputs: ReportOutputOptions.loadedFiles(rules: ruleSet, mappings: request.mappings))
        failureRemovesEarlierReports = true
        request.eventFormats = logs.formats
        if let problem = request.eventFormatProblems.first {
            StandardError.write("error: " + StandardError.escaped(problem))
            throw ExitCode(ExitStatus.invalidInput)
        }
        request.subjectMapPath = subjectMap
        request.shard = shard.flatMap(Shard.init(parsing:))
        let progress = ProgressDisplay.forStandardError(quiet: quiet)
        if let progress { request.progress = { @Sendable update in progress.update(update) } }
        defer { progress?.finish() }
        if let configuration {
            request.extraInputs = [
                InputFileSummary(
                    path: configuration.path, kind: .config, sha256: configuration.sha256,
                    records: configuration.suppressions.count)
            ]
            if !noSuppressions { request.suppressions = configuration.suppressions }
        }
        request.asOfDay =
            asOf
            ?? String(Timestamp(seconds: Int64(Date().timeIntervalSince1970)).description.prefix(10))
        if let baseline {
            do {
                request.baselineFingerprints = try Baseline.fingerprints(ofReport: baseline)
            } catch {
                StandardError.write(error.diagnostics)
                throw ExitCode(ExitStatus.invalidInput)
            }
        }
        request.dataEnd = dataEnd.flatMap(Timestamp.init(rfc3339:))
        if let partition = partition.flatMap(Shard.init(parsing:)) {
            request.partition = partition
            try writePartial(request, partition: partition)
            progress?.finish()
            return
        }
        let report: LintReport
        do {
            report = try Linter.run(request)
            progress?.finish()
        } catch {
            StandardError.write(error.diagnostics)
            // The hint only where --skip-invalid would have read on: bad records of a log or an
            // account export, not a file refused as a whole or at a place, nor a manifest, rule
            // or option problem.
            StandardError.write("relaylint: no report written: the inputs are invalid" + skipInvalidHint(error))
            throw ExitCode(ExitStatus.invalidInput)
        }
        let empty = report.inputsReadNothing
        for input in empty {
            StandardError.write(
                "\(StandardError.escaped(input.path)): warning: \(StandardError.escaped(LintReport.nothingReadMessage(input.path)))")
        }
        if failOnEmpty && !empty.isEmpty {
            StandardError.write(
                "relaylint: no report written: \(empty.count == 1 ? "an input" : "\(empty.count) inputs") held no record (--fail-on-empty)")
            throw ExitCode(ExitStatus.invalidInput)
        }
        let useColor =
            color == "always"
            || (color == "auto" && reporting.output == nil && StandardOutput.isTerminal
                && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
        var options = ReportOptions(color: useColor, title: reporting.title, reviewer: reporting.reviewer, date: reporting.date)
        if let jobs { options.parallelism = jobs }
        let reporter = ReporterRegistry.reporter(for: format)!
        failureRemovesEarlierReports = false
        if let output = reporting.output {
            try write(reporter, report, options: options, to: output, format: format)
        } else {
            try StandardOutput.write { reporter.write(report, options: options, to: $0) }
        }
        for entry in reporting.extraReports {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            try write(
                ReporterRegistry.reporter(for: parts[0])!, report,
                options: ReportOptions(
                    title: reporting.title, reviewer: reporting.reviewer, date: reporting.date, parallelism: options.parallelism),
                to: parts[1], format: parts[0])
        }
        try reporting.appendStepSummary(of: report, format: format)
        ReportOutputOptions.warnOfExpiredSuppressions(in: report)
        let threshold = reporting.failOn == "never" ? nil : Severity(rawValue: reporting.failOn)
        if report.fails(at: threshold) { throw ExitCode(ExitStatus.findings) }
    }

    /// The hint a run stopped by `error` ends with: `--skip-invalid`, where it would read on.
    private func skipInvalidHint(_ error: DiagnosticsError) -> String {
        !skipInvalid && error.onlySkippableRecords ? " (use --skip-invalid to skip bad records)" : ""
    }

    /// The map step: the partition's partial, for `relaylint merge`, which decides the exit code.
    private func writePartial(_ request: LintRequest, partition: Shard) throws {
        let evaluation: PartialEvaluation
        do {
            evaluation = try Linter.runPartition(request)
        } catch {
            StandardError.write(error.diagnostics)
            StandardError.write("relaylint: no partial written: the inputs are invalid" + skipInvalidHint(error))
            throw ExitCode(ExitStatus.invalidInput)
        }
        // `split` leaves data-end.txt empty only for data without events: an empty --data-end
        // beside events means that file was lost or cut, and windows would close at the wrong end.
        if dataEndOption?.isEmpty == true, evaluation.events > 0 {
            StandardError.write(
                "relaylint: --data-end is empty, but the partition holds \(Plural.counted(evaluation.events, "event")): split writes "
                    + "the data's end into data-end.txt whenever it has events, so that file is lost or cut; give the time it held")
            StandardError.write("relaylint: no partial written")
            throw ExitCode(ExitStatus.invalidInput)
        }
        var json = PartitionReport(partition: partition, request: request, evaluation: evaluation).json()
        json.append(UInt8(ascii: "\n"))
        guard let output = reporting.output else {
            FileHandle.standardOutput.write(json)
            return
        }
        do {
            // Not `.atomic`: Foundation writes a temporary file and renames it over the path, which
            // replaced `--output /dev/null` (a device) with a regular file.
            try ReportBytes.write(toPath: output) { sink in json.withUnsafeBytes { sink($0) } }
        } catch {
            StandardError.write("\(StandardError.escaped(output)): error: cannot write the partial: \(error.localizedDescription)")
            throw ExitCode(ExitStatus.invalidInput)
        }
        StandardError.write(
            "relaylint: wrote partition \(partition) to \(StandardError.escaped(output)) (\(Plural.counted(evaluation.subjects, "subject")))"
        )
    }

    private func write(_ reporter: any Reporter, _ report: LintReport, options: ReportOptions, to path: String, format: String) throws {
        do {
            try ReportBytes.write(toPath: path) { reporter.write(report, options: options, to: $0) }
        } catch {
            StandardError.write("\(StandardError.escaped(path)): error: cannot write report: \(error.localizedDescription)")
            throw ExitCode(ExitStatus.invalidInput)
        }
        StandardError.write(
            "relaylint: wrote \(format) report to \(StandardError.escaped(path)) (\(Plural.counted(report.summary.findings, "finding")))")
    }
}
