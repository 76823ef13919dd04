extension RuleSet {
    /// An error for each id that names no rule of the pack, with the closest id as a hint, for
    /// rule ids given on the command line (`--enable`, `--disable`).
    public func unknownRules(_ ids: [String], givenWith option: String) -> [Diagnostic] {
        ids.filter { rule(id: $0) == nil }.map { id in
            var message = "\(option) names no loaded rule '\(id)'"
            if let suggestion = SchemaReader.closest(to: id, in: rules.map(\.id)) { message += "; did you mean '\(suggestion)'?" }
            return Diagnostic(.error, message, at: SourceLocation(file: "relaylint"))
        }
    }

    /// The pack without the given rules (`--disable`).
    public func removing(_ ids: Set<String>) -> RuleSet {
        var result = self
        result.rules.removeAll { ids.contains($0.id) }
        return result
    }
}
