import Foundation

/// What `relaylint init` learns from the inputs it is given before writing starter files: the
/// apps, whether each creates accounts and shows in-app deletion requests, who sends mail to
/// relay addresses, and what a given manifest already declares.
public struct InputSurvey: Sendable, Equatable {
    /// One app of the data or the manifest.
    public struct App: Sendable, Equatable {
        public var bundleId: String
        /// Data without an `app` field and no manifest entry to name it.
        public var isUnnamed: Bool { bundleId == UnnamedApp.id }
        public var createsAccounts: Bool
        public var exportedAccounts: Int
        public var inAppDeletionRequests: Int
        /// The senders of mail to relay addresses in the log, in name order.
        public var relaySendersSeen: [String]
        /// What the given manifest declares for the app (empty without one).
        public var declarations: [String: JSONValue]
    }

    public var apps: [App]
    /// The exports and logs looked at, as given.
    public var accountPaths: [String]
    public var eventPaths: [String]

    /// Survey rules: data, like every rule, with ids no pack is likely to use.
    static let surveyRules = """
        rules:
          - id: relaylint-init-relay-mail
            severity: note
            when: {type: email.sent, where: {to: {relay: true}}}
            message: "{event.from}"
          - id: relaylint-init-in-app-deletion
            severity: note
            when: {type: account.deletion_requested, where: {channel: in_app}}
            message: "{app}"
        """

    /// Reads the inputs as `check` would (with the rules given, so a manifest may hold the
    /// declarations they read) and surveys them.
    public static func survey(
        accountPaths: [String], eventPaths: [String], manifestPath: String?, mappings: [LogMapping] = [], rules: RuleSet,
        relayDomains: RelayDomains = RelayDomains()
    ) throws(DiagnosticsError) -> InputSurvey {
        let loaded = RuleLoader.load(text: surveyRules, path: "relaylint-init", sha256: "")
        precondition(loaded.diagnostics.isEmpty, "the survey rules are valid")
        // A folder is read as its files, as `check` reads it; the command written keeps the folder.
        var logs: [String] = []
        for path in eventPaths {
            do throws(InputError) {
                logs += try InputFolder.files(at: path)
            } catch {
                throw DiagnosticsError(error.diagnostics)
            }
        }
        var request = LintRequest(
            eventPaths: logs, accountPaths: accountPaths, manifestPath: manifestPath,
            rules: RuleSet(rules: rules.rules + loaded.rules, files: rules.files), relayDomains: relayDomains, showPII: true)
        request.mappings = mappings
        request.acceptsEveryManifestKey = true
        // Read unmasked, for the manifest it writes; its messages are masked as `check`'s are,
        // since they go to a terminal or a CI log (a record's bad time may be an address).
        let report: LintReport
        do {
            report = try Linter.run(request)
        } catch {
            throw DiagnosticsError(Linter.masked(error.diagnostics, by: PIIMasker()))
        }
        var manifest: AppManifest?
        if let manifestPath {
            // Every declaration kept, for rules of the team's that init does not load.
            manifest = try AppManifestLoader.load(path: manifestPath, ruleKeys: nil).manifest
        }
        var senders: [String: Set<String>] = [:]
        var requests: [String: Int] = [:]
        for finding in report.findings {
            switch finding.rule {
            case "relaylint-init-relay-mail" where finding.message != "(unset)": senders[finding.app, default: []].insert(finding.message)
            case "relaylint-init-in-app-deletion": requests[finding.app, default: 0] += 1
            default: break
            }
        }
        let apps = report.apps.map { app in
            App(
                bundleId: app.bundleId, createsAccounts: app.createsAccounts, exportedAccounts: app.accounts,
                inAppDeletionRequests: requests[app.bundleId] ?? 0, relaySendersSeen: (senders[app.bundleId] ?? []).sorted(),
                declarations: manifest?.entry(for: app.bundleId)?.declarations ?? [:])
        }
        return InputSurvey(apps: apps, accountPaths: accountPaths, eventPaths: eventPaths)
    }
}
