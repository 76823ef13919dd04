import Foundation

/// Reads `firebase auth:export accounts.json` (FORMATS §1.3), and the Admin SDK `listUsers()`
/// dump (§1.6) that is the only Firebase-native way to see `apple.com` links with older CLIs.
struct FirebaseJSONExportReader {
    let path: String
    /// Threads that parse users; the result does not depend on it.
    var parallelism = 1
    /// How many invalid users are listed; the others are only counted (`InvalidRecordList`).
    var listLimit = Int.max
    /// After how many invalid users reading stops (the run will stop there, without
    /// `--skip-invalid`): an export of 50 million `{}` was read whole first, its every user
    /// listed, and took 4 GB.
    var stopAfterInvalid = Int.max

    func read(data: Data) throws(InputError) -> (accounts: [AccountRecord], invalid: [Diagnostic]) {
        var accounts: [AccountRecord] = []
        let invalid = try read(data: data) { accounts.append($0) }
        return (accounts, invalid)
    }

    /// Hands each valid account to `body` in file order, as soon as its batch of users is read,
    /// so that a large export never holds all its records at once; returns the invalid users.
    /// When the file is not valid JSON it throws, possibly after some accounts were handed over.
    func read(data: Data, _ body: (AccountRecord) -> Void) throws(InputError) -> [Diagnostic] {
        let result: Result<[Diagnostic], InputError> = data.withUnsafeBytes { raw in
            do throws(InputError) {
                return .success(try read(bytes: raw.bindMemory(to: UInt8.self), body).listed)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// `read(data:_:)` over bytes the caller holds (a `MappedFile`).
    func read(bytes: UnsafeBufferPointer<UInt8>, _ body: (AccountRecord) -> Void) throws(InputError) -> InvalidRecordList {
        var invalid = InvalidRecordList(limit: listLimit)
        let result: Result<Void, InputError> = withoutActuallyEscaping(body) { body in
            var deliver = UserDelivery(body: body)
            return read(bytes, into: &deliver, &invalid)
        }
        try result.get()
        return invalid
    }

    /// Told, on the reading thread, of byte ranges the parallel path is done with for now, so that
    /// a `MappedFile` can let their pages go. The path may read them again (the fallback that
    /// reports a syntax error does), so this is a hint, not a promise.
    var doneWith: ((Range<Int>) -> Void)?

    private func read(
        _ bytes: UnsafeBufferPointer<UInt8>, into deliver: inout UserDelivery, _ invalid: inout InvalidRecordList
    ) -> Result<Void, InputError> {
        // A byte order mark is skipped, as the logs skip it: editors on Windows write one.
        let hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        var parser = JSONParser(bytes: bytes, offset: hasBOM ? 3 : 0)
        var lineCounter = LineCounter(bytes: bytes)
        do throws(JSONParser.SyntaxError) {
            parser.skipWhitespace()
            // An empty (or blank) export holds no account, as an empty CSV export does: the run
            // warns that no records were read, rather than calling it invalid JSON.
            if parser.isAtEnd { return .success(()) }
            if parser.currentByte == UInt8(ascii: "[") {
                try readUsers(&parser, bytes, &lineCounter, into: &deliver, &invalid)
                if invalid.count >= stopAfterInvalid { return .success(()) }
            } else {
                try parser.expect(UInt8(ascii: "{"), "'{' starting the export object")
                var sawUsers = false
                // A key given twice is invalid here as in any other object: a second "users"
                // array was read as more accounts.
                var keys: Set<String> = []
                if !parser.consume(UInt8(ascii: "}")) {
                    repeat {
                        parser.skipWhitespace()
                        guard parser.currentByte == UInt8(ascii: "\"") else { throw parser.error("expected a string key") }
                        let quote = parser.offset
                        let key = try parser.parseString()
                        guard keys.insert(key).inserted else {
                            // Masked, then cut: a key cut right after its `@` would show its local part.
                            let name = PIIMasker().mask(key).shortened()
                            throw JSONParser.SyntaxError(offset: quote, reason: "duplicate key '\(name)' in an object")
                        }
                        try parser.expect(UInt8(ascii: ":"), "':' after an object key")
                        if key == "users" {
                            sawUsers = true
                            parser.skipWhitespace()
                            guard parser.currentByte == UInt8(ascii: "[") else { throw parser.error("expected 'users' to be an array") }
                            try readUsers(&parser, bytes, &lineCounter, into: &deliver, &invalid)
                            if invalid.count >= stopAfterInvalid { return .success(()) }
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
                        .refused([
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
                .refused([
                    Diagnostic(
                        .error, "invalid JSON: \(error.reason)", at: SourceLocation(file: path, line: line, column: column))
                ]))
        }
    }

    private func readUsers(
        _ parser: inout JSONParser, _ bytes: UnsafeBufferPointer<UInt8>, _ lines: inout LineCounter,
        into deliver: inout UserDelivery, _ invalid: inout InvalidRecordList
    ) throws(JSONParser.SyntaxError) {
        parser.skipWhitespace()
        // Users the parallel path handed over before it met a syntax error (the sequential path
        // then reads the array again to report that error exactly) are not handed over twice.
        var alreadyDelivered = 0
        if parallelism > 1 {
            switch parallelUsers(bytes, arrayStart: parser.offset, lines: &lines, into: &deliver, &invalid) {
            case .read(let end):
                parser.move(to: end)
                return
            case .failed(let delivered): alreadyDelivered = delivered
            case .stopped: return
            }
        }
        try parser.expect(UInt8(ascii: "["), "'['")
        if parser.consume(UInt8(ascii: "]")) { return }
        var index = 0
        repeat {
            parser.skipWhitespace()
            let start = parser.offset
            let location = SourceLocation(file: path, line: lines.line(at: start))
            let account = try FirebaseJSONExportReader.account(parsing: &parser, depth: 1, location: location)
            if index >= alreadyDelivered {
                deliver(account, at: FirebaseJSONExportReader.location(of: account, inUserAt: start, at: location, in: bytes), &invalid)
            }
            if invalid.count >= stopAfterInvalid { return }
            index += 1
        } while parser.consume(UInt8(ascii: ","))
        try parser.expect(UInt8(ascii: "]"), "',' or ']' in the users array")
    }

    /// Hands accounts to the caller and collects invalid users.
    struct UserDelivery {
        let body: (AccountRecord) -> Void

        func callAsFunction(_ user: Result<AccountRecord, InputProblem>, at location: SourceLocation, _ invalid: inout InvalidRecordList) {
            switch user {
            case .success(let account): body(account)
            case .failure(let problem): invalid.append(Diagnostic(.error, problem.reason, at: location))
            }
        }
    }

    private enum ParallelOutcome {
        /// Every user was handed over; the array ends at this offset.
        case read(end: Int)
        /// A scan or parse failed after `delivered` users were handed over.
        case failed(delivered: Int)
        /// `stopAfterInvalid` invalid users were met.
        case stopped
    }

    /// Users per batch of the parallel path: enough to keep every thread busy, few enough that
    /// their records (about 600 bytes each) never add up to much.
    var batchSize = 16_384

    /// The users array read on several threads: a structural scan (`UsersArrayScan`) finds a
    /// batch of users at a time, and each user is parsed strictly and converted in parallel while
    /// the scan finds the next batch. When the scan or a parse meets a syntax error it says how
    /// many users it had handed over: the sequential path then reads the array again, reports the
    /// first error exactly, and does not hand those users over twice.
    private func parallelUsers(
        _ bytes: UnsafeBufferPointer<UInt8>, arrayStart: Int, lines: inout LineCounter, into deliver: inout UserDelivery,
        _ invalid: inout InvalidRecordList
    ) -> ParallelOutcome {
        guard arrayStart < bytes.count, bytes[arrayStart] == UInt8(ascii: "[") else { return .failed(delivered: 0) }
        // Lines are counted by the scan itself: a second pass to number the users took a third
        // as long as the scan.
        var scan = UsersArrayScan(bytes, arrayStart: arrayStart, line: lines.line(at: arrayStart + 1))
        let shared = SharedBytes(bytes: bytes)
        let path = self.path
        let parallelism = self.parallelism
        let parse: @Sendable ([UsersArrayScan.Element]) -> [ParsedUser?] = { users in
            Linter.parallelMap(users, parallelism: parallelism) { element -> ParsedUser? in
                var parser = JSONParser(
                    bytes: UnsafeBufferPointer(rebasing: shared.bytes[..<element.bytes.upperBound]), offset: element.bytes.lowerBound)
                let location = SourceLocation(file: path, line: element.line)
                let account: Result<AccountRecord, InputProblem>
                do throws(JSONParser.SyntaxError) {
                    account = try FirebaseJSONExportReader.account(parsing: &parser, depth: 1, location: location)
                    parser.skipWhitespace()
                    guard parser.isAtEnd else { return nil }
                } catch {
                    return nil
                }
                return ParsedUser(
                    account: account,
                    location: FirebaseJSONExportReader.location(
                        of: account, inUserAt: element.bytes.lowerBound, at: location, in: shared.bytes))
            }
        }
        // In batches, each handed over while the next is parsed (the handing over runs on this
        // thread alone, and the workers waited for it): the records of a 2M-user export never
        // exist all at once, two batches at most.
        guard let first = scan.next(batchSize) else { return .failed(delivered: 0) }
        var current = first.isEmpty ? nil : BatchInFlight(first, parse)
        var delivered = 0
        while let inFlight = current {
            // The next batch is found while this one is parsed.
            let following = scan.next(batchSize)
            let parsed = inFlight.result()
            // A broken structure, or a user that is not JSON: the sequential path says where.
            guard let following, parsed.allSatisfy({ $0 != nil }) else { return .failed(delivered: delivered) }
            current = following.isEmpty ? nil : BatchInFlight(following, parse)
            for case let user? in parsed { deliver(user.account, at: user.location, &invalid) }
            delivered += parsed.count
            if invalid.count >= stopAfterInvalid {
                // The next batch, already being parsed, reads the bytes: it ends before they may go.
                _ = current?.result()
                return .stopped
            }
            doneWith?(inFlight.users.first!.bytes.lowerBound..<inFlight.users.last!.bytes.upperBound)
        }
        guard let end = scan.end else { return .failed(delivered: delivered) }
        return .read(end: end)
    }

    /// Converts one exported user; both the CLI's and the Admin SDK's spellings are accepted.
    static func account(from value: JSONValue, location: SourceLocation) -> Result<AccountRecord, InputProblem> {
        guard let user = value.objectValue else {
            return .failure(InputProblem("expected a user object, found \(value.kindName)"))
        }
        return account(from: ExportedUserFields(user), location: location)
    }

    /// Reads one user at the parser's offset (a value at `depth`): an object is read straight
    /// into its fields, anything else as a value that `account(from:location:)` then rejects.
    static func account(
        parsing parser: inout JSONParser, depth: Int, location: SourceLocation
    ) throws(JSONParser.SyntaxError) -> Result<AccountRecord, InputProblem> {
        parser.skipWhitespace()
        guard parser.currentByte == UInt8(ascii: "{") else {
            return account(from: try parser.parseValue(depth: depth), location: location)
        }
        return account(from: try ExportedUserFields(parsing: &parser, depth: depth), location: location)
    }

    /// What an out-of-range `createdAt` is out of.
    static let millisecondRange = "(epoch milliseconds from year 1 to year 9999)"

    static func account(from user: ExportedUserFields, location: SourceLocation) -> Result<AccountRecord, InputProblem> {
        guard case .string(let localId)? = user.localId ?? user.uid, !localId.isEmpty else {
            return .failure(InputProblem("user has no string 'localId'"))
        }
        let idName = user.localId != nil ? "localId" : "uid"
        if let problem = SubjectID.problem(with: localId, what: "'\(idName)'") {
            return .failure(InputProblem("user: " + problem, at: [.member(idName)]))
        }
        func optionalString(_ name: String, _ value: JSONValue?) -> Result<String?, InputProblem> {
            switch value {
            case .none, .null?: .success(nil)
            case .string(let text)?: .success(text)
            case let other?:
                .failure(InputProblem("user '\(localId)': field '\(name)' must be a string, found \(other.kindName)", at: [.member(name)]))
            }
        }
        do {
            let email = try optionalString("email", user.email).get()
            let phone = try optionalString("phoneNumber", user.phoneNumber).get()
            let hasHash = (try optionalString("passwordHash", user.passwordHash).get()).map { !$0.isEmpty } ?? false
            var createdAt: Timestamp? = nil
            switch user.createdAt {
            case .none, .null?: break
            case .string(let text)?:
                if let parsed = Timestamp(epochMillisecondDigits: text) {
                    createdAt = parsed
                } else if let number = Double(text), text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }),
                    let parsed = Timestamp(epochMilliseconds: JSONNumber(text: text, value: number))
                {
                    createdAt = parsed
                } else if Double(text) != nil, text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }) {
                    return .failure(
                        InputProblem(
                            "user '\(localId)': 'createdAt' is out of range: '\(text)' \(Self.millisecondRange)", at: [.member("createdAt")]
                        ))
                } else {
                    return .failure(
                        InputProblem(
                            "user '\(localId)': 'createdAt' must be epoch milliseconds, found '\(text)'", at: [.member("createdAt")]))
                }
            case .number(let number)?:
                guard let parsed = Timestamp(epochMilliseconds: number) else {
                    return .failure(
                        InputProblem(
                            "user '\(localId)': 'createdAt' is out of range: \(number.text) \(Self.millisecondRange)",
                            at: [.member("createdAt")]))
                }
                createdAt = parsed
            case let other?:
                return .failure(
                    InputProblem(
                        "user '\(localId)': 'createdAt' must be epoch milliseconds, found \(other.kindName)", at: [.member("createdAt")]))
            }
            // The Admin SDK's `listUsers()` dump: a creation time that does not read was taken
            // for none, and the account's identities then held "from the start", which changes
            // findings without a word.
            if createdAt == nil, let creationTime = user.metadata?.objectValue?["creationTime"] {
                switch creationTime {
                case .null: break
                case .string(let text):
                    guard let parsed = HTTPDate.parse(text) ?? Timestamp(rfc3339: text) else {
                        return .failure(
                            InputProblem(
                                "user '\(localId)': 'metadata.creationTime' must be a date as the Admin SDK writes it "
                                    + "(e.g. 'Sun, 01 Mar 2026 00:00:00 GMT'), found '\(text)'",
                                at: [.member("metadata"), .member("creationTime")]))
                    }
                    createdAt = parsed
                default:
                    return .failure(
                        InputProblem(
                            "user '\(localId)': 'metadata.creationTime' must be a date string, found \(creationTime.kindName)",
                            at: [.member("metadata"), .member("creationTime")]))
                }
            }
            let disabled: Bool
            switch user.disabled {
            case .bool(let value)?: disabled = value
            case .string(let text)?: disabled = text.lowercased() == "true"
            default: disabled = false
            }
            var providers: [AccountRecord.ProviderEntry] = []
            let providerField = user.providerUserInfo != nil ? "providerUserInfo" : "providerData"
            switch user.providerUserInfo ?? user.providerData {
            case .none, .null?: break
            case .array(let entries)?:
                for (index, entry) in entries.enumerated() {
                    guard let info = entry.objectValue, case .string(let providerId)? = info["providerId"] else {
                        return .failure(
                            InputProblem(
                                "user '\(localId)': \(providerField)[\(index)] has no string 'providerId'",
                                at: [.member(providerField), .entry(index)]))
                    }
                    providers.append(
                        AccountRecord.ProviderEntry(
                            providerId: providerId, rawId: (info["rawId"] ?? info["uid"])?.stringValue,
                            email: info["email"]?.stringValue, federatedId: info["federatedId"]?.stringValue))
                }
            case let other?:
                return .failure(
                    InputProblem(
                        "user '\(localId)': '\(providerField)' must be an array, found \(other.kindName)", at: [.member(providerField)]))
            }
            let claims = try CustomClaims.parse(user.customAttributes, what: "user '\(localId)': 'customAttributes'")
                .mapError { problem in InputProblem(problem.reason, at: [.member("customAttributes")]) }.get()
            return .success(
                AccountRecord(
                    localId: localId, email: email, phoneNumber: phone, hasPasswordHash: hasHash, disabled: disabled,
                    createdAt: createdAt, providers: providers, customClaims: claims, location: location))
        } catch {
            return .failure(error)
        }
    }
}

/// The export's bytes, read (never written) by the workers that parse users.
private struct SharedBytes: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
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

/// A user the parallel read parsed, with where it was read.
private struct ParsedUser: Sendable {
    var account: Result<AccountRecord, InputProblem>
    var location: SourceLocation
}

/// A batch of users being parsed on other threads; `result()` waits for it.
private final class BatchInFlight: @unchecked Sendable {
    let users: [UsersArrayScan.Element]
    private let group = DispatchGroup()
    /// Written once by the parsing thread, read after the group's wait.
    private var parsed: [ParsedUser?] = []

    init(_ users: [UsersArrayScan.Element], _ parse: @escaping @Sendable ([UsersArrayScan.Element]) -> [ParsedUser?]) {
        self.users = users
        DispatchQueue.global().async(group: group) { self.parsed = parse(users) }
    }

    func result() -> [ParsedUser?] {
        group.wait()
        return parsed
    }
}
