import ArgumentParser
import Foundation
import RelayLintCore

/// Where reports go and how audit reports are labelled, and when the run fails: shared by
/// `check` and `merge`, which write the same reports from one evaluation or from its partials.
struct ReportOutputOptions: ParsableArguments {
    @Option(
        name: .customLong("output"),
        help: ArgumentHelp("Write the report to this file instead of standard output ('-': standard output).", valueName: "file"))
    var outputArgument: String?

    /// The file the report goes to; nil for standard output, which `-` names as it does for
    /// `--events -` (it was a file named `-`).
    var output: String? { outputArgument == "-" ? nil : outputArgument }

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

    /// The files a loaded rule set and mapping set were read from, as inputs no report may
    /// overwrite: `--rules DIR`, `--mapping DIR` and the configuration's `rule_paths:` and
    /// `mappings:` name folders and files that the options alone do not show.
    static func loadedFiles(rules: RuleSet, mappings: [LogMapping]) -> [(option: String, path: String)] {
        rules.files.map { ("the rule file", $0.path) } + mappings.map { ("the mapping file", $0.location.file) }
    }

    /// In GitHub Actions the annotations come with a Markdown summary for the job page: appended
    /// to `$GITHUB_STEP_SUMMARY` when a GitHub report is written, by `check` and by `merge` alike
    /// (a merge's report is one run's).
    func appendStepSummary(of report: LintReport, format: String) throws {
        guard format == "github" || extraReports.contains(where: { $0.hasPrefix("github=") }),
            let summaryPath = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !summaryPath.isEmpty,
            let handle = FileHandle(forWritingAtPath: summaryPath)
        else { return }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(GitHubReporter().stepSummary(report).utf8))
        } catch {
            StandardError.write(
                "\(StandardError.escaped(summaryPath)): error: cannot append the step summary (GITHUB_STEP_SUMMARY): \(error.localizedDescription)"
            )
            throw ExitCode(ExitStatus.invalidInput)
        }
    }

    /// Tells on standard error of each suppression past its expiry date, for `check` and `merge`
    /// alike: it fails no run, but it wants renewing or removing.
    static func warnOfExpiredSuppressions(in report: LintReport) {
        for outcome in report.expiredSuppressions {
            StandardError.write(
                "\(StandardError.escaped("\(outcome.suppression.location)")): warning: suppression expired on \(StandardError.escaped(outcome.suppression.expires)): it no longer applies, and the findings it accepted count again; renew it with a new justification or fix the findings"
            )
        }
    }

    /// Refuses a `--date` that is not a day, as `--as-of` is refused: it is printed on the audit
    /// report's cover and sign-off, and any text was printed there as it was given, an address
    /// or a phone number included.
    func refuseDateThatIsNotADay() throws { try ArgumentChecks.requireDay(date, option: "--date") }

    /// Refuses a `--report` to standard output (`sarif=-`): it was a file named `-`, and the
    /// main report may be on standard output too.
    func refuseExtraReportsOnStandardOutput() throws {
        for entry in extraReports where entry.split(separator: "=", maxSplits: 1).last == "-" {
            throw ValidationError(
                "--report writes a file, found '\(entry)': standard output takes the main report (--format, without --output or with --output -)"
            )
        }
        // Another spelling of standard output (`/dev/stdout`, `/dev/fd/1`, the file it is
        // redirected to): opened again, it cut the main report's file to the other report, or
        // followed the main report with a second document in a pipe. (Without `--output`, every
        // target is a `--report`'s.)
        if output == nil, let standardOutput = Self.identity(ofStream: STDOUT_FILENO) {
            for target in reportTargets where Self.identity(ofPath: target.path) == standardOutput {
                throw ValidationError(
                    "\(target.text) is standard output, which takes the main report (--format, without --output): write it to a file of its own"
                )
            }
        }
        // Standard error by another name (`/dev/stderr`, `2> results.sarif`): relaylint's own
        // messages written there through its own offset went over the report's first bytes.
        if let standardError = Self.identity(ofStream: STDERR_FILENO) {
            for target in reportTargets where Self.identity(ofPath: target.path) == standardError {
                throw ValidationError(
                    "\(target.text) is standard error, where relaylint writes its messages, which would go over the report: write it to a file of its own"
                )
            }
        }
    }

    /// A stream's file, pipe or socket, by device and inode; nil for a terminal or a device such
    /// as `/dev/null`, which take two writers without harm.
    private static func identity(ofStream descriptor: Int32) -> FileIdentity? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, [S_IFREG, S_IFIFO, S_IFSOCK].contains(info.st_mode & S_IFMT) else { return nil }
        return FileIdentity(info)
    }

    /// What `path` names now, whatever its kind; nil when nothing is there.
    private static func identity(ofPath path: String) -> FileIdentity? {
        var info = stat()
        return stat(path, &info) == 0 ? FileIdentity(info) : nil
    }

    /// The path a chain of symbolic links ends at, even where nothing is there yet: a report
    /// written through a dangling link lands where its last link points.
    private static func finalPath(of path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK,
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
            else { return current }
            current =
                target.hasPrefix("/")
                ? target : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
        }
        return current
    }

    /// The files reports are written to, `--output` and each `--report`'s, each with how a
    /// message names it (`--output 'r.json'`, `--report 'sarif=r.sarif'`).
    private var reportTargets: [(text: String, path: String)] {
        var targets = output.map { [("--output '\(StandardError.escaped($0))'", $0)] } ?? []
        for entry in extraReports {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { targets.append(("--report '\(StandardError.escaped(entry))'", parts[1])) }
        }
        return targets
    }

    /// The files reports are written to.
    private var reportPaths: [String] { reportTargets.map(\.path) }

    /// Whether no report file is one of `paths` or lies in a folder among them: rule and mapping
    /// folders, whose files are known only once they load, which a failed load never tells.
    func reportsLieOutside(_ paths: [String]) -> Bool {
        let reports = Set(reportPaths.compactMap(FileIdentity.init(path:)))
        guard !reports.isEmpty else { return true }
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            guard isFolder.boolValue else {
                if let identity = FileIdentity(path: path), reports.contains(identity) { return false }
                continue
            }
            // Listed through the folder a link names: listed through the link, it held no file
            // (as `RuleSet` found), and a report there counted as outside it.
            let folder = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            guard let files = FileManager.default.enumerator(atPath: folder) else { return false }
            var listed = 0
            for case let file as String in files {
                listed += 1
                if let identity = FileIdentity(path: (folder as NSString).appendingPathComponent(file)), reports.contains(identity) {
                    return false
                }
            }
            // A folder listed as empty may be one the enumerator could not read: not known to be
            // outside, so nothing is removed.
            if listed == 0 { return false }
        }
        return true
    }

    /// Runs a command, and removes the reports an earlier run left (`removeEarlierReports`) when
    /// it ends with invalid input while the flag it is handed is set: the command sets it once
    /// no file it reads can be a report's destination, and clears it before writing its own.
    /// - Parameter output: what the command writes, and so what of an earlier run it removes.
    func removingEarlierReportsOnFailure(of output: EarlierOutput = .report, _ command: (inout Bool) throws -> Void) throws {
        var failureRemovesEarlierReports = false
        do {
            try command(&failureRemovesEarlierReports)
        } catch let exit as ExitCode where exit.rawValue == ExitStatus.invalidInput && failureRemovesEarlierReports {
            // A report of an earlier run left where this one was to go would claim a result
            // for inputs that have none: a pipeline uploading it would show the last clean run.
            removeEarlierReports(of: output)
            throw exit
        }
    }

    /// Removes the reports an earlier run left where this run's were to go, when this run ends
    /// with invalid input and writes none: left there, the last run's report, clean perhaps,
    /// would stand for inputs that have no result (a pipeline that uploads `results.sarif`
    /// whatever the exit code would show it). Only regular files: `/dev/stdout` or a pipe is no
    /// report left behind. Only what relaylint writes (`EarlierOutput`): a file of anything
    /// else there (a partial `merge` was to read, named as its output by mistake; a log) is
    /// left, and said to be. Call it only once the outputs are known to name no input.
    func removeEarlierReports(of output: EarlierOutput) {
        for path in reportPaths {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            let shown = StandardError.escaped(path)
            guard EarlierOutput(contentsOf: path) == output else {
                StandardError.write(
                    "relaylint: left '\(shown)' as it is: it is no \(output.noun) relaylint wrote, so it is not this run's to remove"
                )
                continue
            }
            guard unlink(path) == 0 else { continue }
            StandardError.write("relaylint: removed '\(shown)', a \(output.noun) of an earlier run")
        }
    }

    /// Refuses a report written inside a folder of inputs (`--events logs/ --output
    /// logs/report.json`): even where no report is there yet, the next run would read this one
    /// as a log of the folder. A hidden one (`logs/.report.json`) is never read.
    func refuseReportsInside(folder: String, option: String) throws {
        try refuseReportsRead(
            by: { InputFolder.reads($0, under: folder) }, folder: folder, option: option, as: "every file is read as a log")
    }

    /// The files of the rule and mapping folders, each with the option that names its folder.
    /// Those folders read their YAML files: a report there under such a name is refused, as the
    /// next run would read it as a rule or a mapping (and fail on it); a report over one of the
    /// files (standard output redirected to it) is refused by the caller, as over any input.
    func filesOfDefinitionFolders(
        rules: [(option: String, path: String)], mappings: [(option: String, path: String)]
    ) throws -> [(option: String, path: String)] {
        var files: [(option: String, path: String)] = []
        let kinds:
            [(folders: [(option: String, path: String)], listing: (String) -> [String]?, reads: (String, String) -> Bool, noun: String)] = [
                (rules, RuleSet.files(inFolder:), RuleSet.reads(_:under:), "rule"),
                (mappings, MappingSet.files(inFolder:), MappingSet.reads(_:under:), "mapping"),
            ]
        for kind in kinds {
            for (option, folder) in kind.folders {
                guard let listed = kind.listing(folder) else { continue }
                try refuseReportsRead(
                    by: { kind.reads($0, folder) }, folder: folder, option: option,
                    as: "every .yml and .yaml file is read as a \(kind.noun)")
                files += listed.map { (option, $0) }
            }
        }
        return files
    }

    /// Refuses a report the next run would read from a folder of rules or mappings, whose every
    /// `.yml` and `.yaml` file is one: `--rules rules/ --output rules/report.yml` made every
    /// later run fail on the report.
    /// - Parameter reads: whether a file written at a path is read from the folder.
    func refuseReportsRead(by reads: (String) -> Bool, folder: String, option: String, as what: String) throws {
        for report in reportPaths where reads(report) || reads(Self.finalPath(of: report)) {
            throw ValidationError(
                "the report '\(StandardError.escaped(report))' lies inside the folder \(option) '\(StandardError.escaped(folder))', whose \(what): write it to another folder"
            )
        }
    }

    /// Refuses reports that would be written over an input (a report written over a log or a
    /// partial destroys it), or two reports written to one file (only the last would be left).
    /// Files are compared by device and inode, so another spelling or a link of the same file
    /// counts.
    /// - Parameter inputs: every file the command reads, with the option that names it, as the
    ///   message quotes it (`--events`, `partial`).
    func checkOverwritesNothing(inputs: [(option: String, path: String)]) throws {
        // Each file with the option that names it, as the message quotes it.
        func named(_ option: String, _ path: String) -> (path: String, text: String) {
            (path, "\(option) '\(StandardError.escaped(path))'")
        }
        let outputs = reportTargets
        // The main report on standard output redirected to a file (`> logs/report.json`,
        // `>> events.jsonl`) is written there as to `--output`.
        let standardOutput = output == nil ? Self.identity(ofStream: STDOUT_FILENO) : nil
        guard !outputs.isEmpty || standardOutput != nil else { return }
        let inputs = inputs.map { named($0.option, $0.path) }
        let inputIdentities = inputs.map { FileIdentity(path: $0.path) }
        if let standardOutput, let index = inputIdentities.firstIndex(of: standardOutput) {
            throw ValidationError(
                "standard output, where the report goes, is the input \(inputs[index].text): the report would be written into it; "
                    + "write it to another file (--output)")
        }
        var written: [FileIdentity: String] = [:]
        for target in outputs {
            guard let identity = FileIdentity(path: target.path) else { continue }
            if let index = inputIdentities.firstIndex(of: identity) {
                throw ValidationError(
                    "\(target.text) is the input \(inputs[index].text): the report would overwrite it; write it to another file")
            }
            if let earlier = written[identity] {
                throw ValidationError("\(target.text) and \(earlier) name the same file: one report would overwrite the other")
            }
            written[identity] = target.text
        }
    }
}
