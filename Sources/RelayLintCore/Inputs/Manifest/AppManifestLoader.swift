import Foundation

/// Loads the app manifest (YAML or JSON): `apps: [{bundle_id, creates_accounts, in_app_deletion, …}]`.
enum AppManifestLoader {
    /// Declarations the engine itself reads, with their expected kinds.
    static let knownKeys: [String: String] = [
        "bundle_id": "string", "name": "string", "creates_accounts": "bool", "in_app_deletion": "bool",
        // Senders registered with Apple's private email relay (addresses or domains); known even
        // when the rule that reads it is turned off, so turning a rule off never breaks a manifest.
        "relay_senders": "strings",
    ]

    /// - Parameter ruleKeys: declarations the loaded rules test (`manifest:` conditions), which
    ///   are allowed besides the known ones; any other key is reported as a likely typo. Nil
    ///   allows every key: `init` keeps a manifest's declarations for rules it does not load.
    static func load(path: String, ruleKeys: Set<String>?) throws(DiagnosticsError) -> (manifest: AppManifest, sha256: String) {
        let (parsed, sha256) = try YAMLTree.load(path: path)
        guard let tree = parsed else {
            throw DiagnosticsError([
                Diagnostic(
                    .error, "manifest is empty; expected 'apps:' with one entry per app", at: SourceLocation(file: path, line: 1, column: 1)
                )
            ])
        }
        var reader = SchemaReader()
        var entries: [AppManifest.Entry] = []
        let allowed = Array(Set(knownKeys.keys).union(ruleKeys ?? [])).sorted()
        if let map = reader.mapping(tree, what: "the manifest", allowed: ["apps"], required: ["apps"]),
            let list = map["apps"].flatMap({ reader.list($0.value, what: "'apps'") })
        {
            var seen: Set<String> = []
            for item in list {
                let ownKeys: [String] = if ruleKeys == nil, case .mapping(let pairs) = item.content { pairs.map(\.key) } else { [] }
                guard let entry = reader.mapping(item, what: "an app entry", allowed: allowed + ownKeys, required: ["bundle_id"]) else {
                    continue
                }
                var declarations: [String: JSONValue] = [:]
                // In the file's order, so that its problems are told by line every run.
                let inOrder = entry.sorted {
                    ($0.value.value.location.line, $0.value.value.location.column ?? 0, $0.key)
                        < ($1.value.value.location.line, $1.value.value.location.column ?? 0, $1.key)
                }
                for (key, pair) in inOrder {
                    switch knownKeys[key] {
                    case "bool": if let flag = reader.bool(pair.value, what: "'\(key)'") { declarations[key] = .bool(flag) }
                    case "string": if let text = reader.nonEmptyString(pair.value, what: "'\(key)'") { declarations[key] = .string(text) }
                    case "strings":
                        if let texts = reader.strings(pair.value, what: "'\(key)'") {
                            // A blank sender matched a mail whose sender was blank, as registered.
                            let items: [YAMLTree] = if case .sequence(let items) = pair.value.content { items } else { [pair.value] }
                            for (text, item) in zip(texts, items) where text.allSatisfy(\.isWhitespace) {
                                reader.report(
                                    "each item of '\(key)' must be an address or a domain, found a blank string", at: item.location)
                            }
                            declarations[key] = .array(texts.map(JSONValue.string))
                        }
                    default: declarations[key] = pair.value.jsonValue
                    }
                }
                guard case .string(let bundleId)? = declarations["bundle_id"] else { continue }
                // Every finding of the app's data names it, and with one app listed all data
                // without an app is its: a megabyte's id was copied into each finding.
                if bundleId.utf8.count > AppManifest.longestBundleID {
                    reader.report(
                        "'bundle_id' must be a bundle id (at most \(AppManifest.longestBundleID) bytes), found one of \(bundleId.utf8.count)",
                        at: entry["bundle_id"]?.value.location ?? item.location)
                    continue
                }
                if !seen.insert(bundleId).inserted {
                    reader.report("app '\(bundleId)' is listed twice", at: item.location)
                    continue
                }
                entries.append(AppManifest.Entry(bundleId: bundleId, declarations: declarations, location: item.location))
            }
        }
        guard reader.diagnostics.isEmpty else { throw DiagnosticsError(reader.diagnostics) }
        return (AppManifest(entries: entries, path: path), sha256)
    }
}
