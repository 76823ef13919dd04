/// Reads a `YAMLTree` against an expected shape, collecting every problem with its location
/// instead of stopping at the first, so one `rules validate` run lists them all.
struct SchemaReader {
    private(set) var diagnostics: [Diagnostic] = []

    mutating func report(_ message: String, at location: SourceLocation) {
        diagnostics.append(Diagnostic(.error, message, at: location))
    }

    /// The mapping's pairs by key, after checking that every key is allowed and required keys are
    /// present. Unknown keys get a "did you mean" when one is close.
    /// - Parameter reportingUnknownKeys: false to read again a mapping read before, whose
    ///   unknown keys were reported then.
    mutating func mapping(
        _ tree: YAMLTree, what: String, allowed: [String], required: [String] = [], reportingUnknownKeys: Bool = true
    ) -> [String: (keyLocation: SourceLocation, value: YAMLTree)]? {
        guard case .mapping(let pairs) = tree.content else {
            report("\(what) must be a mapping, found \(tree.kindName)", at: tree.location)
            return nil
        }
        var result: [String: (keyLocation: SourceLocation, value: YAMLTree)] = [:]
        for pair in pairs {
            if allowed.contains(pair.key) {
                result[pair.key] = (pair.keyLocation, pair.value)
            } else if reportingUnknownKeys {
                // Quoted masked: a stray key may be anything, an address too (a misplaced line).
                var message = "unknown key '\(PIIMasker().mask(pair.key))' in \(what)"
                if let suggestion = SchemaReader.closest(to: pair.key, in: allowed) { message += "; did you mean '\(suggestion)'?" }
                message += " (allowed: \(allowed.joined(separator: ", ")))"
                report(message, at: pair.keyLocation)
            }
        }
        for key in required where result[key] == nil {
            report("\(what) is missing required key '\(key)'", at: tree.location)
        }
        return result
    }

    mutating func string(_ tree: YAMLTree, what: String) -> String? {
        if case .scalar(.string(let text)) = tree.content { return text }
        if case .scalar(.number(let number)) = tree.content { return number.text }
        report("\(what) must be a string, found \(tree.kindName)", at: tree.location)
        return nil
    }

    mutating func nonEmptyString(_ tree: YAMLTree, what: String) -> String? {
        guard let text = string(tree, what: what) else { return nil }
        if text.trimmingWhitespace.isEmpty {
            report("\(what) must not be empty", at: tree.location)
            return nil
        }
        return text
    }

    /// Strict booleans: only `true` and `false`.
    mutating func bool(_ tree: YAMLTree, what: String) -> Bool? {
        if case .scalar(.bool(let flag)) = tree.content { return flag }
        // A quoted `"true"` is a string that reads as the flag: said so, or the message seemed to
        // refuse `true` itself.
        if case .scalar(.string(let text)) = tree.content, ["true", "false"].contains(text.lowercased()) {
            report("\(what) must be true or false, found the string '\(text)' (write it without quotes)", at: tree.location)
            return nil
        }
        report("\(what) must be true or false, found \(SchemaReader.shown(tree))", at: tree.location)
        return nil
    }

    /// A string or a list of strings.
    mutating func strings(_ tree: YAMLTree, what: String) -> [String]? {
        switch tree.content {
        case .sequence(let elements):
            let values = elements.compactMap { string($0, what: "each item of \(what)") }
            return values.count == elements.count ? values : nil
        case .scalar(.string), .scalar(.number):
            return string(tree, what: what).map { [$0] }
        default:
            // One string stands for a list of one; anything else is neither.
            report("\(what) must be a string or a list of strings, found \(tree.kindName)", at: tree.location)
            return nil
        }
    }

    mutating func list(_ tree: YAMLTree, what: String) -> [YAMLTree]? {
        if case .sequence(let elements) = tree.content { return elements }
        report("\(what) must be a list, found \(tree.kindName)", at: tree.location)
        return nil
    }

    mutating func duration(_ tree: YAMLTree, what: String) -> RuleDuration? {
        if case .scalar(.string(let text)) = tree.content, let duration = RuleDuration(text) { return duration }
        if case .scalar(.string(let text)) = tree.content, RuleDuration.isWrittenAsOne(text) {
            // Written right, but past what a duration holds: say the limit, not the form.
            report(
                "\(what) is longer than relaylint handles: a number below 1000000 before each unit, and at most 106751d "
                    + "(about 292 years) in all; found \(SchemaReader.shown(tree))", at: tree.location)
            return nil
        }
        report("\(what) must be a duration such as 30d, 12h, 90m, 45s or 2w, found \(SchemaReader.shown(tree))", at: tree.location)
        return nil
    }

    mutating func severity(_ tree: YAMLTree, what: String) -> Severity? {
        if case .scalar(.string(let text)) = tree.content, let severity = Severity(rawValue: text) { return severity }
        report("\(what) must be one of error, warning, note; found \(SchemaReader.shown(tree))", at: tree.location)
        return nil
    }

    static func shown(_ tree: YAMLTree) -> String {
        if case .scalar(let value) = tree.content {
            return value == .null ? "nothing" : "'\(value.displayText)'"
        }
        return tree.kindName
    }

    /// The allowed word nearest to a misspelt one, if it is close enough to be a typo.
    static func closest(to word: String, in candidates: [String]) -> String? {
        // Ties go to the name first in alphabetical order, so that a mistake gets the same suggestion every run.
        let scored = candidates.map { ($0, editDistance(word, $0)) }.min { ($0.1, $0.0) < ($1.1, $1.0) }
        guard let (best, distance) = scored, distance <= max(2, word.count / 3) else { return nil }
        return best
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
