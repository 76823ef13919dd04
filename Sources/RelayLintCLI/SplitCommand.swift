import ArgumentParser
import Foundation
import RelayLintCore

/// `relaylint split`: the partition step for teams without an engine, in one pass over the files.
struct SplitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "split",
        abstract: "Split an account export and logs by subject into N partitions for `check --partition K/N`.",
        discussion: """
            Writes DIR/partition-K-of-N/ (K = 1…N) with each file's records of the subjects whose id \
            hashes to K (FNV-1a 64 of the UTF-8 id, modulo N), at their original lines; \
            DIR/sources.json (the original files, for `merge --sources`) and DIR/data-end.txt (the \
            latest event time, for `check --data-end`).
              relaylint split --partitions 4 --accounts accounts.json --events events.jsonl --output parts
              relaylint check --partition 2/4 --data-end "$(cat parts/data-end.txt)" \\
                  --accounts parts/partition-2-of-4/accounts.json --events parts/partition-2-of-4/events.jsonl \\
                  --format json --output partial-2.json
              relaylint merge partial-*.json --sources parts/sources.json --format html --output audit.html
            """)

    @Option(help: ArgumentHelp("How many partitions (1 to 4096).", valueName: "n"))
    var partitions: Int

    @Option(
        name: .customLong("accounts"),
        help: ArgumentHelp("A Firebase Auth export (JSON); repeatable.", valueName: "file"))
    var accountPaths: [String] = []

    @Option(name: .customLong("events"), help: ArgumentHelp("A relaylint log (JSON Lines); repeatable.", valueName: "file"))
    var eventPaths: [String] = []

    @Option(help: ArgumentHelp("The folder to write the partitions to.", valueName: "dir"))
    var output: String

    func validate() throws {
        guard !ArgumentChecks.areHeldBack else { return }
        guard (1...Shard.maximumCount).contains(partitions) else {
            throw ValidationError("--partitions must be from 1 to \(Shard.maximumCount); found \(partitions)")
        }
        if accountPaths.isEmpty && eventPaths.isEmpty {
            throw ValidationError("nothing to split: give --accounts FILE and/or --events FILE")
        }
        if (accountPaths + eventPaths).contains("-") {
            throw ValidationError(
                "split reads files, not standard input ('-'): it reads each file whole and records its SHA-256 in sources.json; save the stream to a file and split that"
            )
        }
        if let csv = accountPaths.first(where: { $0.lowercased().hasSuffix(".csv") }) {
            throw ValidationError("split reads JSON exports; '\(csv)' is CSV")
        }
    }

    func run() throws {
        try refuseOverwritingAnInput()
        let inputs =
            accountPaths.map { SubjectSplitter.Input(path: $0, kind: .accounts) }
            + eventPaths.map { SubjectSplitter.Input(path: $0, kind: .events) }
        do {
            let sources = try SubjectSplitter(count: partitions, directory: output).split(inputs)
            StandardError.write(
                "relaylint: split \(Plural.counted(inputs.count, "file")) into \(Plural.counted(partitions, "partition")) in \(StandardError.escaped(output)); the data ends at \(sources.dataEnd.map(\.description) ?? "(no events)")"
            )
        } catch {
            StandardError.write(error.diagnostics)
            throw ExitCode(ExitStatus.invalidInput)
        }
        // A job template that names each partition's files by the inputs' names would miss these.
        let paths = inputs.map(\.path)
        for (path, name) in zip(paths, SubjectSplitter.fileNames(of: paths)) where name != (path as NSString).lastPathComponent {
            StandardError.write(
                "relaylint: '\(StandardError.escaped(path))' is written as '\(StandardError.escaped(name))' in each partition: an earlier input has its name"
            )
        }
    }

    /// An input that split would write over (`sources.json` or `data-end.txt` in the output
    /// folder, or a file in a partition folder under its own name) is refused before anything
    /// is written, as `check` refuses a report over an input.
    private func refuseOverwritingAnInput() throws {
        let paths = accountPaths + eventPaths
        for (path, name) in zip(paths, SubjectSplitter.fileNames(of: paths)) {
            guard let input = FileIdentity(path: path) else { continue }
            let written =
                ["\(output)/sources.json", "\(output)/data-end.txt"]
                + (1...partitions).map { "\(output)/\(SubjectSplitter.folderName($0, of: partitions))/\(name)" }
            if let target = written.first(where: { FileIdentity(path: $0) == input }) {
                throw ValidationError("split would write \(target) over the input \(path); give another --output folder")
            }
        }
    }
}
