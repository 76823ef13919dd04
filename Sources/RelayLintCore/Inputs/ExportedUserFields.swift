/// The members of one exported user that `FirebaseJSONExportReader.account(from:location:)`
/// looks at, as JSON values; nil where the user lacks the member.
///
/// An export user has a dozen members (display name, photo, sign-in times, password salt...)
/// of which the rules need a few. Reading a user into these fields instead of a dictionary of
/// all its members was most of the account phase's cost (2M users: a dictionary, its growth and
/// a string per member each). Both ways of filling them keep a repeated member's last value,
/// as a JSON object read into a dictionary does.
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

    init() {}

    /// The fields of a user already read as a JSON object.
    init(_ user: [String: JSONValue]) {
        for (key, value) in user { set(key, value) }
    }

    /// Reads the user object at the parser's offset (an object at `depth`), parsing every member
    /// strictly but keeping only the fields above.
    init(parsing parser: inout JSONParser, depth: Int) throws(JSONParser.SyntaxError) {
        var fields = ExportedUserFields()
        try parser.parseObject(depth: depth) { key, parser throws(JSONParser.SyntaxError) in
            fields.set(key, try parser.parseValue(depth: depth + 1))
        }
        self = fields
    }

    /// Keeps a member if it is one of the fields; both ways of reading a user go through here.
    private mutating func set(_ key: String, _ value: JSONValue) {
        switch key {
        case "localId": localId = value
        case "uid": uid = value
        case "email": email = value
        case "phoneNumber": phoneNumber = value
        case "passwordHash": passwordHash = value
        case "createdAt": createdAt = value
        case "metadata": metadata = value
        case "disabled": disabled = value
        case "providerUserInfo": providerUserInfo = value
        case "providerData": providerData = value
        default: break
        }
    }
}
