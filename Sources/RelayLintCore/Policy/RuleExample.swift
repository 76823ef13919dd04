/// A timeline shipped with a rule that says which events must fire it; `rules test` runs them.
public struct RuleExample: Sendable, Equatable {
    public var name: String
    /// Log records, as they would appear in a JSON Lines log.
    public var events: [(value: JSONValue, location: SourceLocation)]
    /// Exported accounts, as in a Firebase export's `users` array.
    public var accounts: [(value: JSONValue, location: SourceLocation)]
    /// Manifest entries, as in the manifest's `apps` list.
    public var manifest: [(value: JSONValue, location: SourceLocation)]
    /// The event ids (subject rules) or app bundle ids (app rules) that must fire, in any order.
    public var expectedFirings: [String]
    public var location: SourceLocation
    /// Where `fires` is written, for a problem with what it names.
    public var firesLocation: SourceLocation?

    public static func == (lhs: RuleExample, rhs: RuleExample) -> Bool {
        lhs.name == rhs.name && lhs.expectedFirings == rhs.expectedFirings && lhs.location == rhs.location
            && lhs.events.map(\.value) == rhs.events.map(\.value) && lhs.accounts.map(\.value) == rhs.accounts.map(\.value)
            && lhs.manifest.map(\.value) == rhs.manifest.map(\.value)
    }
}
