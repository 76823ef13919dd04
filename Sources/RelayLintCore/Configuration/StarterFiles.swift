import Foundation

/// The commented `.relaylint.yml` and app manifest `relaylint init` writes: a team's first
/// configuration, filled in with what the inputs showed and commented with what to do next.
public enum StarterFiles {
    /// The file names `relaylint init` writes.
    public static let configurationName = ".relaylint.yml"
    public static let manifestName = "relaylint-apps.yml"

    /// The starter `.relaylint.yml`: every setting a team tunes, commented out, so that the
    /// built-in pack runs as it is until someone decides otherwise.
    public static func configuration(for survey: InputSurvey, mappingPaths: [String] = [], directory: String = ".") -> String {
        """
        # relaylint configuration, written by `relaylint init`. relaylint reads .relaylint.yml from
        # the directory it runs in (or the file given with --config). Run it with the manifest:
        #   \(checkCommand(for: survey, mappingPaths: mappingPaths, directory: directory))
        # Every setting below is optional; the README's "Configuration, suppressions, baselines"
        # explains them, docs/rule-language.md the rules.

        # Your own rules, added to the built-in pack (files or folders, relative to this file).
        # rule_paths: [compliance/rules]

        # Your own log formats (docs/mapping-language.md).
        # mappings: [compliance/backend-mapping.yml]

        # The private relay domains (these two are the default).
        # relay_domains: [privaterelay.appleid.com, private.icloud.com]

        # Per-rule settings: turn a rule off, change its severity, set its parameters
        # (`relaylint rules list` names the rules, `relaylint explain RULE` explains one).
        # rules:
        #   deletion-request-completed: {params: {window: 30d}}
        #   data-deleted-after-account-deletion: {params: {stores: [firestore, storage, rtdb]}}
        #   in-app-deletion-channel-used: {enabled: false}
        #   no-mail-to-disabled-relay: {severity: error}

        # Accepted findings: they stay in the reports but do not fail the run. Copy a finding's
        # fingerprint from the JSON report (relaylint check --format json).
        # suppressions:
        #   - fingerprint: 0123abcd…
        #     justification: why this finding is accepted
        #     author: privacy@example.com
        #     expires: 2026-12-31

        """
    }

    /// The starter manifest: one entry per app the inputs showed, with what the data says about
    /// it and the declarations the built-in rules read, set where the data or a given manifest
    /// settles them and commented out where only the team can.
    public static func manifest(for survey: InputSurvey) -> String {
        var lines = [
            "# App manifest for relaylint, written by `relaylint init`: pass it with --manifest \(manifestName).",
            "# One entry per app. The declarations the built-in rules read:",
            "#   creates_accounts: true   the app lets users create accounts (then it must offer in-app deletion)",
            "#   in_app_deletion: true    users can start deleting their account inside the app",
            "#   relay_senders: [...]     the senders registered with Apple's private email relay (addresses or domains)",
            "apps:",
        ]
        let apps = survey.apps.isEmpty ? [nil] : manifestApps(of: survey).map { Optional($0) }
        // The placeholder for data without an app, unless an app of the inputs has that id: the
        // manifest listed it twice, which `check` refuses.
        let taken = Set(apps.compactMap { $0?.isUnnamed == false ? $0?.bundleId : nil })
        let placeholder = (0...).lazy.map { $0 == 0 ? "com.example.app" : "com.example.app\($0 + 1)" }.first { !taken.contains($0) }!
        for app in apps {
            lines += entry(app, only: apps.count == 1, placeholder: placeholder)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Why `check` would refuse a starter file of `text`, or nil: `init` writes no file that
    /// relaylint cannot read back. Only inputs that name thousands of apps come near the cap (a
    /// log whose app field holds something else than bundle ids).
    public static func sizeProblem(of text: String, apps: Int) -> String? {
        let bytes = text.utf8.count
        guard bytes > InputLimits.documentBytes else { return nil }
        let cap = InputLimits.describe(InputLimits.documentBytes)
        return "would take \(bytes) bytes for \(Plural.counted(apps, "app")), more than the \(cap) relaylint reads in a manifest: "
            + "look at what the inputs' app field holds (bundle ids are expected)"
    }

    /// The apps the starter manifest lists. One named app and data without an app (Cloud
    /// Logging entries and Apple's notifications name none, a backend log may name it) are one
    /// entry: a manifest of one app puts all of it there. Listed apart, the data without an app
    /// went to an app of its own, which made sign-ups without a deletion offer.
    public static func manifestApps(of survey: InputSurvey) -> [InputSurvey.App] {
        let apps = survey.apps
        guard apps.count == 2, let unnamed = apps.first(where: \.isUnnamed), var named = apps.first(where: { !$0.isUnnamed })
        else { return apps }
        named.createsAccounts = named.createsAccounts || unnamed.createsAccounts
        named.exportedAccounts += unnamed.exportedAccounts
        named.inAppDeletionRequests += unnamed.inAppDeletionRequests
        named.relaySendersSeen = Array(Set(named.relaySendersSeen + unnamed.relaySendersSeen)).sorted()
        return [named]
    }

    private static func entry(_ app: InputSurvey.App?, only: Bool, placeholder: String) -> [String] {
        guard let app else {
            return [
                "  # No app appeared in the inputs: name yours.",
                "  - bundle_id: com.example.app",
                "    # creates_accounts: true",
                "    # in_app_deletion: true",
                "    # relay_senders: [noreply@example.com]",
            ]
        }
        var lines: [String] = []
        if app.isUnnamed {
            lines.append("  # The events name no app (no 'app' field): give your app's bundle id here.")
            if !only { lines.append("  # With several apps, the events without an app belong to none of them: add 'app' to the log.") }
            lines.append("  - bundle_id: \(placeholder)")
        } else {
            lines.append("  - bundle_id: \(yamlScalar(app.bundleId))")
        }
        var seen: [String] = []
        if app.exportedAccounts > 0 { seen.append(Plural.counted(app.exportedAccounts, "exported account")) }
        seen.append(Plural.counted(app.inAppDeletionRequests, "in-app deletion request"))
        seen.append(Plural.counted(app.relaySendersSeen.count, "sender") + " of mail to relay addresses")
        lines.append("    # Seen in the inputs: " + seen.joined(separator: ", ") + ".")
        if let declared = app.declarations["creates_accounts"] {
            lines.append("    creates_accounts: \(flow(declared))")
        } else if app.createsAccounts {
            lines.append("    creates_accounts: true   # the data holds sign-ups or exported accounts")
        } else {
            lines.append("    # creates_accounts: true")
        }
        if let declared = app.declarations["in_app_deletion"] {
            lines.append("    in_app_deletion: \(flow(declared))")
        } else if app.inAppDeletionRequests > 0 {
            lines.append("    in_app_deletion: true   # the log shows in-app deletion requests")
        } else {
            lines.append("    # in_app_deletion: true   # declare it once the app offers deletion inside the app")
        }
        if let declared = app.declarations["relay_senders"] {
            lines.append("    relay_senders: \(flow(declared))")
        } else if app.relaySendersSeen.isEmpty {
            lines.append("    # relay_senders: [noreply@example.com, mail.example.com]   # no mail to relay addresses seen")
        } else {
            // Not declared for the team: declaring every sender seen would make the check pass
            // for senders Apple's relay rejects.
            lines.append("    # The senders seen mailing relay addresses; keep those registered with Apple, then uncomment:")
            lines.append("    # relay_senders: [\(app.relaySendersSeen.map(yamlScalar).joined(separator: ", "))]")
        }
        // The given manifest's other declarations (a name, keys rules of the team's read), as
        // they were.
        let written: Set<String> = ["bundle_id", "creates_accounts", "in_app_deletion", "relay_senders"]
        for (key, value) in app.declarations.sorted(by: { $0.key < $1.key }) where !written.contains(key) {
            lines.append("    \(yamlScalar(key)): \(flow(value))")
        }
        return lines
    }

    /// A declaration as YAML flow, of its kind: a list stays a list, `true` a boolean (written
    /// as the string `"true"`, the manifest `init` wrote was refused by `check`).
    private static func flow(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): number.text
        case .string(let text): yamlScalar(text)
        case .array(let elements): "[" + elements.map(flow).joined(separator: ", ") + "]"
        case .object(let members):
            "{" + members.sorted { $0.key < $1.key }.map { yamlScalar($0.key) + ": " + flow($0.value) }.joined(separator: ", ") + "}"
        }
    }

    /// A plain YAML scalar where one is safe, else a double-quoted one whose every character
    /// outside printable text is escaped: the values come from the inputs, and a sender holding
    /// a line break ended a `# relay_senders:` comment and wrote `in_app_deletion: true` into the
    /// manifest.
    static func yamlScalar(_ text: String) -> String {
        // Plain only where YAML reads it back as this string: not a number (`123`, `+1`, `1e3`),
        // a boolean or null (`true`, `No`, `~`), which a bundle id of the data may well be.
        let keywords: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "nan", "inf"]
        let plain =
            !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || "@._-+".contains($0) }
            && text.unicodeScalars.allSatisfy(\.isASCII) && text.first!.isLetter && !keywords.contains(text.lowercased())
        if plain { return text }
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": quoted += "\\\\"
            case "\"": quoted += "\\\""
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case " "..."~": quoted.unicodeScalars.append(scalar)
            case _
            where scalar.value < 0xA0
                || [.control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse].contains(
                    scalar.properties.generalCategory):
                quoted += scalar.value > 0xFFFF ? "\\U" + hex(scalar.value, width: 8) : "\\u" + hex(scalar.value, width: 4)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The `relaylint check` command for the surveyed inputs and the starter manifest.
    /// - Parameters:
    ///   - mappingPaths: the mappings of the user's own logs that `init` was given: the check
    ///     needs them too, or those logs are "none of the formats relaylint reads".
    ///   - directory: where `init` wrote the files (`--output-directory`); run from elsewhere,
    ///     the check names the configuration and the manifest there (it printed the manifest's
    ///     bare name, which was no file, and left the configuration unread).
    public static func checkCommand(for survey: InputSurvey, mappingPaths: [String] = [], directory: String = ".") -> String {
        // A path that starts with `-` (but standard input's) joined to its option by `=`: given
        // as a word of its own, it is read as an option (`--events -x.jsonl`: "missing value").
        let option = { (name: String, path: String) in
            path.hasPrefix("-") && path != "-" ? "\(name)=\(ShellWord.quoted(path))" : "\(name) \(ShellWord.quoted(path))"
        }
        let accounts = survey.accountPaths.map { option("--accounts", $0) }
        let mappings = mappingPaths.map { option("--mapping", $0) }
        let events = survey.eventPaths.isEmpty ? ["--events events.jsonl"] : survey.eventPaths.map { option("--events", $0) }
        guard directory != "." else {
            return (["relaylint check"] + accounts + mappings + events + ["--manifest \(manifestName)"]).joined(separator: " ")
        }
        let written = { (name: String) in (directory as NSString).appendingPathComponent(name) }
        return
            (["relaylint check " + option("--config", written(configurationName))] + accounts + mappings + events + [
                option("--manifest", written(manifestName))
            ]).joined(separator: " ")
    }
}
