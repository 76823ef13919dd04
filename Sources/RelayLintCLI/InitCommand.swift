import ArgumentParser
import Foundation
import RelayLintCore

/// `relaylint init`: a commented starter `.relaylint.yml` and app manifest, filled in from the
/// inputs given.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a commented starter .relaylint.yml and app manifest, after looking at the given export and logs.",
        discussion: """
            The manifest lists the apps the inputs show, says whether each creates accounts and shows in-app \
            deletion requests, and lists the senders of mail to relay addresses for you to check. \
            Existing files are never overwritten.

            Example:
              relaylint init --accounts accounts.json --events events.jsonl
            """)

    @Option(name: .customLong("accounts"), help: ArgumentHelp("A Firebase Auth export (JSON or CSV); repeatable.", valueName: "file"))
    var accountPaths: [String] = []

    @Option(
        name: .customLong("events"),
        help: ArgumentHelp("An action log, in any format check reads, or a folder of them; repeatable.", valueName: "path"))
    var eventPaths: [String] = []

    @Option(
        name: .customLong("manifest"),
        help: ArgumentHelp("An app manifest you have: its declarations are kept in the new one.", valueName: "file"))
    var manifestPath: String?

    @Option(name: .customLong("mapping"), help: ArgumentHelp("A log mapping of your own; repeatable.", valueName: "path"))
    var mappingPaths: [String] = []

    @Option(
        name: .customLong("output-directory"),
        help: ArgumentHelp("Where to write \(StarterFiles.configurationName) and \(StarterFiles.manifestName).", valueName: "dir"))
    var directory: String = "."

    func run() throws {
        let configurationPath =
            directory == "."
            ? StarterFiles.configurationName : (directory as NSString).appendingPathComponent(StarterFiles.configurationName)
        let manifestOutput =
            directory == "." ? StarterFiles.manifestName : (directory as NSString).appendingPathComponent(StarterFiles.manifestName)
        // Checked first, so that nothing is written when either exists.
        for path in [configurationPath, manifestOutput] where FileManager.default.fileExists(atPath: path) {
            StandardError.write(
                "\(StandardError.escaped(path)): error: already exists; relaylint init never overwrites a file (move it away first)")
            throw ExitCode(ExitStatus.invalidInput)
        }
        // In a folder of logs the manifest would be read as one of them by the command printed
        // (`init --events .`); the configuration is hidden, never read as a log.
        for folder in eventPaths where InputFolder.isFolder(folder) && InputFolder.reads(manifestOutput, under: folder) {
            StandardError.write(
                "\(StandardError.escaped(manifestOutput)): error: would be written inside the folder --events "
                    + "'\(StandardError.escaped(folder))', whose every file is read as a log; give --output-directory another folder")
            throw ExitCode(ExitStatus.invalidInput)
        }
        let survey: InputSurvey
        do {
            survey = try InputSurvey.survey(
                accountPaths: accountPaths, eventPaths: eventPaths, manifestPath: manifestPath,
                mappings: try MappingSet.load(userPaths: mappingPaths).mappings, rules: try RuleSet.builtIn())
        } catch {
            StandardError.write(error.diagnostics)
            throw ExitCode(ExitStatus.invalidInput)
        }
        let manifest = StarterFiles.manifest(for: survey)
        if let problem = StarterFiles.sizeProblem(of: manifest, apps: survey.apps.count) {
            StandardError.write("\(StandardError.escaped(manifestOutput)): error: \(problem)")
            throw ExitCode(ExitStatus.invalidInput)
        }
        // The folder is made as `git init DIR` makes one: "the file doesn't exist" named neither.
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            StandardError.write("\(StandardError.escaped(directory)): error: cannot create the folder: \(error.localizedDescription)")
            throw ExitCode(ExitStatus.invalidInput)
        }
        for (path, text) in [
            (configurationPath, StarterFiles.configuration(for: survey, mappingPaths: mappingPaths, directory: directory)),
            (manifestOutput, manifest),
        ] {
            // `withoutOverwriting`: a file that appeared since the check above is not replaced either.
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
            } catch {
                StandardError.write("\(StandardError.escaped(path)): error: cannot write: \(error.localizedDescription)")
                throw ExitCode(ExitStatus.invalidInput)
            }
        }
        var lines = ["wrote \(StandardError.escaped(configurationPath)) and \(StandardError.escaped(manifestOutput))"]
        for app in StarterFiles.manifestApps(of: survey) {
            // An app id is input data: its control characters could forge terminal or CI output,
            // and one that is an address is masked as reports mask it (the manifest keeps it).
            let name =
                app.isUnnamed ? "data without an app (name it in the manifest)" : StandardError.escaped(PIIMasker().mask(app.bundleId))
            var facts = [app.createsAccounts ? "creates accounts" : "creates no accounts"]
            facts.append(Plural.counted(app.inAppDeletionRequests, "in-app deletion request"))
            if app.declarations["relay_senders"] != nil {
                facts.append("relay senders declared")
            } else {
                facts.append("no relay senders declared (\(Plural.counted(app.relaySendersSeen.count, "sender")) seen)")
            }
            lines.append("  \(name): " + facts.joined(separator: ", "))
        }
        lines.append("review the manifest's declarations, then run:")
        lines.append("  " + StandardError.escaped(StarterFiles.checkCommand(for: survey, mappingPaths: mappingPaths, directory: directory)))
        try StandardOutput.write(lines.joined(separator: "\n") + "\n")
    }
}
