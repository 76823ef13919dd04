import Foundation

/// Reads and validates `.relaylint.yml`, reporting every problem at its line and column.
public enum ConfigurationLoader {
    public static let defaultFileName = ".relaylint.yml"
    static let topKeys = ["rules", "rule_paths", "builtin_rules", "relay_domains", "suppressions", "mappings"]
    static let ruleKeys = ["enabled", "severity", "params"]
    /// The most values a rule's list parameter may be given (the stores of
    /// `data-deleted-after-account-deletion`): an app has a handful of data stores.
    static let longestParameterList = 256
    static let suppressionKeys = ["fingerprint", "rule", "subject", "justification", "author", "expires"]

    public static func load(path: String) throws(DiagnosticsError) -> Configuration {
        let (parsed, sha256) = try YAMLTree.load(path: path)
        var configuration = Configuration(path: path, sha256: sha256)
        guard let tree = parsed else { return configuration }
        var reader = SchemaReader()
        guard let map = reader.mapping(tree, what: "the configuration", allowed: topKeys) else {
            throw DiagnosticsError(reader.diagnostics)
        }
        let base = (path as NSString).deletingLastPathComponent
        /// The paths a key lists, relative ones read from the configuration's folder; one that
        /// names nothing is told where the configuration names it (told at the path alone, it
        /// did not say which file to mend).
        func paths(_ key: String) -> [String]? {
            guard let node = map[key]?.value, let paths = reader.strings(node, what: "'\(key)'") else { return nil }
            let items: [YAMLTree] = if case .sequence(let items) = node.content { items } else { [node] }
            let resolved = paths.map { $0.hasPrefix("/") || base.isEmpty ? $0 : (base as NSString).appendingPathComponent($0) }
            for (index, path) in resolved.enumerated() where !FileManager.default.fileExists(atPath: path) {
                // Told where it was read only when that is not as written (compared unmasked:
                // a path holding an address was told "read as" itself).
                let written = PIIMasker().mask(paths[index])
                reader.report(
                    "'\(key)' names '\(written)', which does not exist"
                        + (paths[index] == path || base.isEmpty
                            ? "" : " (read as '\(PIIMasker().mask(path))', from the configuration's folder)"),
                    at: index < items.count ? items[index].location : node.location)
            }
            return resolved
        }
        if let rulePaths = paths("rule_paths") { configuration.rulePaths = rulePaths }
        if let mappingPaths = paths("mappings") { configuration.mappingPaths = mappingPaths }
        if let node = map["builtin_rules"]?.value, let flag = reader.bool(node, what: "'builtin_rules'") {
            configuration.includesBuiltInRules = flag
        }
        if let node = map["relay_domains"]?.value, let domains = reader.strings(node, what: "'relay_domains'") {
            if domains.isEmpty { reader.report("'relay_domains' must list at least one domain", at: node.location) }
            if domains.count > RelayDomains.maximumCount {
                reader.report(
                    "'relay_domains' lists \(domains.count) domains; at most \(RelayDomains.maximumCount) are taken (every address is tested against each)",
                    at: node.location)
            }
            // Each entry told at its own place: told at the list's, a long list's problems named
            // one column again and again.
            let places = node.sequenceLocations ?? Array(repeating: node.location, count: domains.count)
            for (domain, place) in zip(domains, places) {
                if let problem = RelayDomains.problem(with: domain) {
                    reader.report("'relay_domains' entry '\(domain)' \(problem)", at: place)
                }
            }
            configuration.relayDomains = domains
        }
        if let node = map["rules"]?.value, case .mapping(let pairs) = node.content {
            for pair in pairs {
                var setting = Configuration.RuleSetting(location: pair.keyLocation)
                guard let fields = reader.mapping(pair.value, what: "the settings of rule '\(pair.key)'", allowed: ruleKeys) else {
                    continue
                }
                if let value = fields["enabled"]?.value, let flag = reader.bool(value, what: "'enabled'") { setting.enabled = flag }
                if let value = fields["severity"]?.value { setting.severity = reader.severity(value, what: "'severity'") }
                if let value = fields["params"]?.value {
                    if case .mapping(let params) = value.content {
                        for param in params {
                            // A rule is checked once per value of a list parameter (each of
                            // `stores`): 100,000 stores and 5,000 events of one subject took 4 GB.
                            if case .sequence(let values) = param.value.content, values.count > Self.longestParameterList {
                                reader.report(
                                    "'\(param.key)' lists \(values.count) values; a rule's parameter may list at most \(Self.longestParameterList)",
                                    at: param.value.location)
                                continue
                            }
                            setting.parameters[param.key] = param.value
                        }
                    } else {
                        reader.report(
                            "'params' must be a mapping of parameter names to values, found \(value.kindName)", at: value.location)
                    }
                }
                configuration.rules[pair.key] = setting
            }
        } else if let node = map["rules"]?.value {
            reader.report("'rules' must be a mapping of rule ids to settings, found \(node.kindName)", at: node.location)
        }
        if let node = map["suppressions"]?.value, let list = reader.list(node, what: "'suppressions'") {
            for item in list {
                guard
                    let fields = reader.mapping(
                        item, what: "a suppression", allowed: suppressionKeys,
                        required: ["justification", "author", "expires"])
                else { continue }
                func text(_ key: String) -> String? { fields[key].flatMap { reader.nonEmptyString($0.value, what: "'\(key)'") } }
                let fingerprint = text("fingerprint")
                let rule = text("rule")
                let subject = text("subject")
                if fingerprint == nil && rule == nil {
                    reader.report("a suppression needs 'fingerprint', or 'rule' (with an optional 'subject')", at: item.location)
                }
                if fingerprint != nil && (rule != nil || subject != nil) {
                    reader.report("a suppression takes either 'fingerprint' or 'rule'/'subject', not both", at: item.location)
                }
                if let justification = text("justification"), justification.count < 10 {
                    reader.report(
                        "'justification' must say why the finding is accepted (at least 10 characters)",
                        at: fields["justification"]!.value.location)
                }
                var expires = ""
                if let node = fields["expires"]?.value, let day = reader.string(node, what: "'expires'") {
                    if Timestamp(rfc3339: day + "T00:00:00Z") == nil || day.count != 10 {
                        reader.report("'expires' must be a date YYYY-MM-DD, found '\(day)'", at: node.location)
                    }
                    expires = day
                }
                configuration.suppressions.append(
                    Suppression(
                        fingerprint: fingerprint, rule: rule, subject: subject, justification: text("justification") ?? "",
                        author: text("author") ?? "", expires: expires, location: item.location))
            }
        }
        guard reader.diagnostics.isEmpty else { throw DiagnosticsError(reader.diagnostics) }
        return configuration
    }

    /// Loads the configuration `locate` gave. One found in the working directory, not given,
    /// must be a regular file: a link there to a pipe or a device blocked every run in that
    /// directory, waiting for a writer. A pipe given with `--config <(…)` is read.
    public static func load(located path: String, given: Bool) throws(DiagnosticsError) -> Configuration {
        if !given, !FileBytes.isRegularFile(path) {
            throw DiagnosticsError([
                Diagnostic(
                    .error, "not a regular file (a device, a pipe or a link to one); give such a configuration with --config",
                    at: SourceLocation(file: path))
            ])
        }
        return try load(path: path)
    }

    /// The configuration file to use: the one given, else `.relaylint.yml` in the working
    /// directory when it exists.
    public static func locate(explicit: String?, workingDirectory: String) -> String? {
        if let explicit { return explicit }
        let candidate = (workingDirectory as NSString).appendingPathComponent(defaultFileName)
        return FileManager.default.fileExists(atPath: candidate) ? candidate : nil
    }
}
