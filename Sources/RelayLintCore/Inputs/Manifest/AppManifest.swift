/// The app manifest (`--manifest`): what each app declares about itself.
public struct AppManifest: Sendable, Equatable {
    /// The longest bundle id an entry may have, in UTF-8 bytes (a letter with a thousand
    /// combining marks is one character): Apple's are far shorter (155 characters in App Store
    /// Connect), and the manifest's reach the findings of all the app's data.
    static let longestBundleID = 255

    /// One app's entry.
    public struct Entry: Sendable, Equatable {
        public var bundleId: String
        /// Every key of the entry, so rules can test declarations the engine does not know.
        public var declarations: [String: JSONValue] { didSet { listed = Self.listed(in: declarations) } }
        public var location: SourceLocation
        /// The strings each declaration lists (one string is a list of one), as addresses compare
        /// (`Identity.emailKey`): a rule's `in_manifest:` looks a value up here for every event,
        /// where a search of the list made 10,000 senders × 100,000 mails a billion comparisons.
        private(set) var listed: [String: Set<String>]

        public init(bundleId: String, declarations: [String: JSONValue], location: SourceLocation) {
            self.bundleId = bundleId
            self.declarations = declarations
            self.location = location
            listed = Self.listed(in: declarations)
        }

        private static func listed(in declarations: [String: JSONValue]) -> [String: Set<String>] {
            declarations.mapValues { value in Set((value.arrayValue ?? [value]).compactMap(\.stringValue).map(Identity.emailKey)) }
        }

        /// True when the entry sets `key` to a true boolean.
        public func declares(_ key: String) -> Bool { declarations[key] == .bool(true) }
    }

    public var entries: [Entry] { didSet { positions = Self.positions(of: entries) } }
    public var path: String
    /// Where each bundle id's entry is: looked up for every app, a search of the list made a
    /// manifest of 153k apps take minutes.
    private var positions: [String: Int]

    public init(entries: [Entry], path: String) {
        self.entries = entries
        self.path = path
        positions = Self.positions(of: entries)
    }

    public func entry(for bundleId: String) -> Entry? { positions[bundleId].map { entries[$0] } }

    /// The first entry of each bundle id (the loader refuses a repeated one).
    private static func positions(of entries: [Entry]) -> [String: Int] {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() where positions[entry.bundleId] == nil { positions[entry.bundleId] = index }
        return positions
    }
}
