/// The app manifest (`--manifest`): what each app declares about itself.
public struct AppManifest: Sendable, Equatable {
    /// One app's entry.
    public struct Entry: Sendable, Equatable {
        public var bundleId: String
        /// Every key of the entry, so rules can test declarations the engine does not know.
        public var declarations: [String: JSONValue]
        public var location: SourceLocation

        public init(bundleId: String, declarations: [String: JSONValue], location: SourceLocation) {
            self.bundleId = bundleId
            self.declarations = declarations
            self.location = location
        }

        /// True when the entry sets `key` to a true boolean.
        public func declares(_ key: String) -> Bool { declarations[key] == .bool(true) }
    }

    public var entries: [Entry]
    public var path: String

    public init(entries: [Entry], path: String) {
        self.entries = entries
        self.path = path
    }

    public func entry(for bundleId: String) -> Entry? { entries.first { $0.bundleId == bundleId } }
}
