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

    /// The fields of a user already read as a JSON object.
    init(_ user: [String: JSONValue]) {
        localId = user["localId"]
        uid = user["uid"]
        email = user["email"]
        phoneNumber = user["phoneNumber"]
        passwordHash = user["passwordHash"]
        createdAt = user["createdAt"]
        metadata = user["metadata"]
        disabled = user["disabled"]
        providerUserInfo = user["providerUserInfo"]
        providerData = user["providerData"]
    }

    /// Reads the user object at the parser's offset (an object at `depth`), parsing every member
    /// strictly but keeping only the fields above.
    init(parsing parser: inout JSONParser, depth: Int) throws(JSONParser.SyntaxError) {
        var fields = ExportedUserFields([:])
        try parser.parseObject(depth: depth) { key, parser throws(JSONParser.SyntaxError) in
            let value = try parser.parseValue(depth: depth + 1)
            switch key {
            case "localId": fields.localId = value
            case "uid": fields.uid = value
            case "email": fields.email = value
            case "phoneNumber": fields.phoneNumber = value
            case "passwordHash": fields.passwordHash = value
            case "createdAt": fields.createdAt = value
            case "metadata": fields.metadata = value
            case "disabled": fields.disabled = value
            case "providerUserInfo": fields.providerUserInfo = value
            case "providerData": fields.providerData = value
            default: break
            }
        }
        self = fields
    }
}
