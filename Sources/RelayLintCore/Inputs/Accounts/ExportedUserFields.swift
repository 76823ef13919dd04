/// The members of one exported user that `FirebaseJSONExportReader.account(from:location:)`
/// looks at, as JSON values; nil where the user lacks the member.
///
/// An export user has a dozen members (display name, photo, sign-in times, password salt...)
/// of which the rules need a few. Reading a user into these fields instead of a dictionary of
/// all its members was most of the account phase's cost (2M users: a dictionary, its growth and
/// a string per member each). Both ways of filling them reject a repeated member (the parser
/// does, wherever an object is read), so neither can keep a value the other would not.
struct ExportedUserFields {
    var localId: JSONValue?
    var uid: JSONValue?
    var email: JSONValue?
    var phoneNumber: JSONValue?
    var passwordHash: JSONValue?
    var createdAt: JSONValue?
    var metadata: JSONValue?
    var disabled: JSONValue?
    var providerUserInfo: JSONValue?
    var providerData: JSONValue?
    var customAttributes: JSONValue?

    /// The members kept, by their key.
    private enum Member: String, CaseIterable {
        case localId, uid, email, phoneNumber, passwordHash, createdAt, metadata, disabled, providerUserInfo, providerData
        case customAttributes
    }

    init() {}

    /// The fields of a user already read as a JSON object.
    init(_ user: [String: JSONValue]) {
        for (key, value) in user {
            if let member = Member(rawValue: key) { set(member, value) }
        }
    }

    /// Reads the user object at the parser's offset (an object at `depth`), parsing every member
    /// strictly but building only the fields above: the others are checked and skipped, and a
    /// provider entry or `metadata` object keeps only the members `account(from:)` reads.
    init(parsing parser: inout JSONParser, depth: Int) throws(JSONParser.SyntaxError) {
        var fields = ExportedUserFields()
        try parser.parseObject(depth: depth, keys: Self.memberKeys) { key, parser throws(JSONParser.SyntaxError) in
            guard let key else { return try parser.skipValue(depth: depth + 1) }
            let member = Member.allCases[key]
            switch member {
            case .providerUserInfo, .providerData: fields.set(member, try Self.parseProviderList(&parser, depth: depth + 1))
            case .metadata: fields.set(member, try Self.parse(&parser, depth: depth + 1, keeping: Self.metadataKeys))
            default: fields.set(member, try parser.parseValue(depth: depth + 1))
            }
        }
        self = fields
    }

    /// What `account(from:)` reads of a user, a provider entry and `metadata`.
    private static let memberKeys = JSONKeys(Member.allCases.map(\.rawValue))
    private static let providerKeys = JSONKeys(["providerId", "rawId", "uid", "email", "federatedId"])
    private static let metadataKeys = JSONKeys(["creationTime"])

    /// A provider list: an array's object entries keep `providerId`, `rawId`, `uid`, `email` and
    /// `federatedId`; any other value is parsed whole, for the converter to reject.
    private static func parseProviderList(_ parser: inout JSONParser, depth: Int) throws(JSONParser.SyntaxError) -> JSONValue {
        parser.skipWhitespace()
        guard parser.currentByte == UInt8(ascii: "[") else { return try parser.parseValue(depth: depth) }
        var entries: [JSONValue] = []
        try parser.parseArray(depth: depth) { parser throws(JSONParser.SyntaxError) in
            entries.append(try parse(&parser, depth: depth + 1, keeping: providerKeys))
        }
        return .array(entries)
    }

    /// An object with only the members named (the last of a repeated one, as the whole object
    /// would hold it); any other value whole.
    private static func parse(
        _ parser: inout JSONParser, depth: Int, keeping kept: JSONKeys
    ) throws(JSONParser.SyntaxError) -> JSONValue {
        parser.skipWhitespace()
        guard parser.currentByte == UInt8(ascii: "{") else { return try parser.parseValue(depth: depth) }
        var members: [String: JSONValue] = [:]
        try parser.parseObject(depth: depth, keys: kept) { key, parser throws(JSONParser.SyntaxError) in
            if let key {
                members[kept.names[key]] = try parser.parseValue(depth: depth + 1)
            } else {
                try parser.skipValue(depth: depth + 1)
            }
        }
        return .object(members)
    }

    /// Keeps a member; both ways of reading a user go through here.
    private mutating func set(_ member: Member, _ value: JSONValue) {
        switch member {
        case .localId: localId = value
        case .uid: uid = value
        case .email: email = value
        case .phoneNumber: phoneNumber = value
        case .passwordHash: passwordHash = value
        case .createdAt: createdAt = value
        case .metadata: metadata = value
        case .disabled: disabled = value
        case .providerUserInfo: providerUserInfo = value
        case .providerData: providerData = value
        case .customAttributes: customAttributes = value
        }
    }
}
