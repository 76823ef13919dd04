import Foundation

/// Reads `firebase auth:export accounts.json` (FORMATS §1.3), and the Admin SDK `listUsers()`
/// dump (§1.6) that is the only Firebase-native way to see `apple.com` links with older CLIs.
struct FirebaseJSONExportReader {
    let path: String

    func read(data: Data) throws(InputError) -> (accounts: [AccountRecord], invalid: [Diagnostic]) {
        var accounts: [AccountRecord] = []
        var invalid: [Diagnostic] = []
        let result: Result<Void, InputError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var parser = JSONParser(bytes: bytes)
            var lineCounter = LineCounter(bytes: bytes)
            do throws(JSONParser.SyntaxError) {
                parser.skipWhitespace()
                if parser.currentByte == UInt8(ascii: "[") {
                    try readUsers(&parser, &lineCounter, into: &accounts, &invalid)
                } else {
                    try parser.expect(UInt8(ascii: "{"), "'{' starting the export object")
                    var sawUsers = false
                    if !parser.consume(UInt8(ascii: "}")) {
                        repeat {
                            parser.skipWhitespace()
                            guard parser.currentByte == UInt8(ascii: "\"") else { throw parser.error("expected a string key") }
                            let key = try parser.parseString()
                            try parser.expect(UInt8(ascii: ":"), "':' after an object key")
                            if key == "users" {
                                sawUsers = true
                                parser.skipWhitespace()
                                guard parser.currentByte == UInt8(ascii: "[") else { throw parser.error("expected 'users' to be an array") }
                                try readUsers(&parser, &lineCounter, into: &accounts, &invalid)
                            } else {
                                _ = try parser.parseValue(depth: 1)
                            }
                        } while parser.consume(UInt8(ascii: ","))
                        try parser.expect(UInt8(ascii: "}"), "',' or '}' in the export object")
                    }
                    parser.skipWhitespace()
                    if !parser.isAtEnd { throw parser.error("unexpected text after the JSON value") }
                    if !sawUsers {
                        return .failure(
                            .invalidRecords([
                                Diagnostic(
                                    .error, "not a Firebase Auth export: expected a top-level \"users\" array",
                                    at: SourceLocation(file: path, line: 1, column: 1))
                            ]))
                    }
                }
                return .success(())
            } catch {
                let (line, column) = FileBytes.lineAndColumn(of: error.offset, in: bytes)
                return .failure(
                    .invalidRecords([
                        Diagnostic(
                            .error, "invalid JSON: \(error.reason)", at: SourceLocation(file: path, line: line, column: column))
                    ]))
            }
        }
        try result.get()
        return (accounts, invalid)
    }

    private func readUsers(
        _ parser: inout JSONParser, _ lines: inout LineCounter, into accounts: inout [AccountRecord],
        _ invalid: inout [Diagnostic]
    ) throws(JSONParser.SyntaxError) {
        try parser.expect(UInt8(ascii: "["), "'['")
        if parser.consume(UInt8(ascii: "]")) { return }
        repeat {
            parser.skipWhitespace()
            let location = SourceLocation(file: path, line: lines.line(at: parser.offset))
            let value = try parser.parseValue(depth: 1)
            switch FirebaseJSONExportReader.account(from: value, location: location) {
            case .success(let account): accounts.append(account)
            case .failure(let problem): invalid.append(Diagnostic(.error, problem.reason, at: location))
            }
        } while parser.consume(UInt8(ascii: ","))
        try parser.expect(UInt8(ascii: "]"), "',' or ']' in the users array")
    }

    /// Converts one exported user; both the CLI's and the Admin SDK's spellings are accepted.
    static func account(from value: JSONValue, location: SourceLocation) -> Result<AccountRecord, InputProblem> {
        guard let user = value.objectValue else {
            return .failure(InputProblem("expected a user object, found \(value.kindName)"))
        }
        let idField = user["localId"] != nil ? "localId" : "uid"
        guard case .string(let localId)? = user[idField], !localId.isEmpty else {
            return .failure(InputProblem("user has no string 'localId'"))
        }
        func optionalString(_ name: String) -> Result<String?, InputProblem> {
            switch user[name] {
            case .none, .null?: .success(nil)
            case .string(let text)?: .success(text)
            case let other?: .failure(InputProblem("user '\(localId)': field '\(name)' must be a string, found \(other.kindName)"))
            }
        }
        do {
            let email = try optionalString("email").get()
            let phone = try optionalString("phoneNumber").get()
            let hasHash = (try optionalString("passwordHash").get()).map { !$0.isEmpty } ?? false
            var createdAt: Timestamp? = nil
            switch user["createdAt"] {
            case .none, .null?: break
            case .string(let text)?:
                guard let number = Double(text), text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }),
                    let parsed = Timestamp(epochMilliseconds: JSONNumber(text: text, value: number))
                else {
                    return .failure(InputProblem("user '\(localId)': 'createdAt' must be epoch milliseconds, found '\(text)'"))
                }
                createdAt = parsed
            case .number(let number)?:
                guard let parsed = Timestamp(epochMilliseconds: number) else {
                    return .failure(InputProblem("user '\(localId)': 'createdAt' is out of range: \(number.text)"))
                }
                createdAt = parsed
            case let other?:
                return .failure(InputProblem("user '\(localId)': 'createdAt' must be epoch milliseconds, found \(other.kindName)"))
            }
            if createdAt == nil, case .string(let text)? = user["metadata"]?.objectValue?["creationTime"] {
                createdAt = HTTPDate.parse(text)
            }
            let disabled: Bool
            switch user["disabled"] {
            case .bool(let value)?: disabled = value
            case .string(let text)?: disabled = text.lowercased() == "true"
            default: disabled = false
            }
            var providers: [AccountRecord.ProviderEntry] = []
            let providerField = user["providerUserInfo"] != nil ? "providerUserInfo" : "providerData"
            switch user[providerField] {
            case .none, .null?: break
            case .array(let entries)?:
                for (index, entry) in entries.enumerated() {
                    guard let info = entry.objectValue, case .string(let providerId)? = info["providerId"] else {
                        return .failure(InputProblem("user '\(localId)': \(providerField)[\(index)] has no string 'providerId'"))
                    }
                    providers.append(
                        AccountRecord.ProviderEntry(
                            providerId: providerId, rawId: (info["rawId"] ?? info["uid"])?.stringValue,
                            email: info["email"]?.stringValue))
                }
            case let other?:
                return .failure(InputProblem("user '\(localId)': '\(providerField)' must be an array, found \(other.kindName)"))
            }
            return .success(
                AccountRecord(
                    localId: localId, email: email, phoneNumber: phone, hasPasswordHash: hasHash, disabled: disabled,
                    createdAt: createdAt, providers: providers, location: location))
        } catch {
            return .failure(error)
        }
    }
}

/// Counts lines up to increasing offsets without rescanning from the start.
struct LineCounter {
    let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0
    private var line = 1

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func line(at target: Int) -> Int {
        while offset < min(target, bytes.count) {
            if bytes[offset] == 0x0A { line += 1 }
            offset += 1
        }
        return line
    }
}

/// Parses the UTC date strings of the Admin SDK's `UserRecord.toJSON()`:
/// `Sat, 03 Feb 2001 04:05:06 GMT`.
enum HTTPDate {
    static func parse(_ text: String) -> Timestamp? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]),
            let monthIndex = months.firstIndex(of: String(parts[2])), let year = Int(parts[3])
        else { return nil }
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return Timestamp(rfc3339: "\(pad(year, 4))-\(pad(monthIndex + 1, 2))-\(pad(day, 2))T\(parts[4])Z")
    }
}
