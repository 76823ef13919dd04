import Foundation

/// How a mapping computes one value from a record: a constant, a path, or a small function of
/// other expressions. Evaluating yields a JSON value, or nil for "no value" (the field is then
/// left out of the event, a `first:` tries the next candidate, `exists: false` holds).
///
/// The functions are the few that real log formats need and no more: a value's last dotted part
/// (`methodName`), a table (method → event type), a regular expression group (the bundle id in a
/// user agent), JSON inside a string (Apple's `events` claim), the claims of a signed token
/// (Apple's notification body), epoch milliseconds from seconds or milliseconds.
indirect enum MappingExpression: Sendable, Equatable {
    case constant(JSONValue)
    case path(MappingPath)
    case first([MappingExpression])
    case condition(MappingCondition, then: MappingExpression, else: MappingExpression?)
    case lookup(MappingExpression, table: [String: JSONValue], default: MappingExpression?)
    case lastPart(MappingExpression, separator: String)
    case regex(MappingExpression, pattern: MappingRegex, group: Int)
    case parseJSON(MappingExpression)
    case jwsClaims(MappingExpression)
    case epochMilliseconds(MappingExpression)
    case concat([MappingExpression])
    case lowercase(MappingExpression)
    /// A path bound to a mapper's record layout (`PathBinder`), and the path as written (for
    /// messages); the loader makes none.
    case bound(BoundPath, MappingPath)

    func evaluate(in scope: MappingScope) throws(MappingFailure) -> JSONValue? {
        switch self {
        case .constant(let value):
            return value
        case .bound(let path, _):
            return try path.resolve(in: scope)
        case .path(let path):
            // A mapper binds its paths once (`RecordMapper`); one left unbound is bound here.
            return try scope.binder.bind(path).resolve(in: scope)
        case .first(let candidates):
            for index in candidates.indices {
                if let value = try candidates[index].evaluate(in: scope), value != .null { return value }
            }
            return nil
        case .condition(let condition, let then, let otherwise):
            return try condition.holds(in: scope) ? then.evaluate(in: scope) : otherwise?.evaluate(in: scope)
        case .lookup(let key, let table, let fallback):
            if let key = try key.evaluate(in: scope), let text = MappingExpression.text(of: key) {
                if let value = table[text] { return value }
                // A number by its value, as conditions compare it: `1.0` or `1e0` finds the entry
                // `1`, whatever the logger's encoder wrote.
                if case .number(let number) = key, let value = table[Self.numberKey(number.text)] { return value }
            }
            return try fallback?.evaluate(in: scope)
        case .lastPart(let inner, let separator):
            guard let value = try inner.evaluate(in: scope), let text = MappingExpression.text(of: value) else { return nil }
            return .string(MappingExpression.lastPart(of: text, separator: separator))
        case .regex(let inner, let pattern, let group):
            guard case .string(let text)? = try inner.evaluate(in: scope) else { return nil }
            return scope.memo.firstMatch(of: pattern, in: text, group: group).map(JSONValue.string)
        case .parseJSON(let inner):
            return try MappingExpression.parseJSON(try inner.evaluate(in: scope), from: inner, projection: nil)
        case .jwsClaims(let inner):
            guard case .string(let token)? = try inner.evaluate(in: scope) else { return nil }
            return try scope.tokens.claims(of: token, what: inner.shortDescription)
        case .epochMilliseconds(let inner):
            guard let value = try inner.evaluate(in: scope) else { return nil }
            guard case .number(let number) = value else {
                throw MappingFailure("\(inner.shortDescription) must be a number of seconds or milliseconds, found \(value.kindName)")
            }
            // Apple's samples give seconds, its real payloads milliseconds: told apart by size.
            guard abs(number.value) < 1e11 else { return value }
            // Exact in decimal where `Decimal` holds the number; past its exponent range (below
            // about 1e-128, where it gives NaN) the double's product, as the native log reads it.
            let decimal = Decimal(string: number.text) ?? Decimal(number.value)
            let text = decimal.isNaN ? "\(number.value * 1000)" : "\(decimal * 1000)"
            return .number(JSONNumber(text: text, value: number.value * 1000))
        case .concat(let parts):
            var text = ""
            for part in parts {
                // Null is no value here, as in `first`: it was joined as the text "null".
                if let value = try part.evaluate(in: scope), value != .null { text += value.displayText }
                // Weighed as it grows: values that each join the one before twice, through
                // `let`, took 15 GB for a record of 60 bytes before any event was weighed.
                guard text.utf8.count <= scope.valueBytesLimit else {
                    throw MappingFailure(
                        "a 'concat' value would take more than \(InputLimits.describe(scope.valueBytesLimit)) "
                            + "(eight times the record, at least 1 MiB)")
                }
            }
            return .string(text)
        case .lowercase(let inner):
            guard case .string(let text)? = try inner.evaluate(in: scope) else { return nil }
            return .string(text.lowercased())
        }
    }

    /// Whether it reads the record, a named value or `$item`: one that reads none gives every
    /// record the same value, which the loader works out once to check it.
    var readsRecord: Bool {
        switch self {
        case .constant: false
        case .path, .bound: true
        case .first(let parts), .concat(let parts): parts.contains(where: \.readsRecord)
        case .condition(let condition, let then, let otherwise):
            condition.readsRecord || then.readsRecord || otherwise?.readsRecord == true
        case .lookup(let key, _, let fallback): key.readsRecord || fallback?.readsRecord == true
        case .lastPart(let inner, _), .regex(let inner, _, _), .parseJSON(let inner), .jwsClaims(let inner),
            .epochMilliseconds(let inner), .lowercase(let inner):
            inner.readsRecord
        }
    }

    /// Whether the expression decodes a signed token (`jws_claims`) anywhere in it.
    var readsSignedTokens: Bool {
        switch self {
        case .jwsClaims: true
        // A path reads a value; it decodes no token.
        case .constant, .path, .bound: false
        case .first(let parts), .concat(let parts): parts.contains(where: \.readsSignedTokens)
        case .condition(let condition, let then, let otherwise):
            condition.readsSignedTokens || then.readsSignedTokens || otherwise?.readsSignedTokens == true
        case .lookup(let key, _, let fallback): key.readsSignedTokens || fallback?.readsSignedTokens == true
        case .lastPart(let inner, _), .regex(let inner, _, _), .parseJSON(let inner), .epochMilliseconds(let inner),
            .lowercase(let inner):
            inner.readsSignedTokens
        }
    }

    /// The JSON a string holds (`parse_json`), read along `projection` when one is given; any
    /// other value as it is.
    static func parseJSON(
        _ value: JSONValue?, from inner: MappingExpression, projection: RecordProjection?
    ) throws(MappingFailure) -> JSONValue? {
        guard case .string(var text)? = value else { return value }
        do throws(JSONParser.SyntaxError) {
            guard let projection else { return try JSONParser.parseRecord(text) }
            let parsed = text.withUTF8 { bytes in
                Result { () throws(JSONParser.SyntaxError) in try projection.parseDocument(bytes) }
            }
            return try parsed.get()
        } catch {
            throw MappingFailure("\(inner.shortDescription) holds invalid JSON: \(error.reason)")
        }
    }

    /// What follows the last `separator` in `text` (compared by UTF-8 bytes, as `methodName`s
    /// are ASCII), or the whole text without one.
    static func lastPart(of text: String, separator: String) -> String {
        // Read in place: a copy of the bytes of every record's `methodName` was an allocation.
        text.withUTF8Bytes { bytes in
            separator.withUTF8Bytes { mark in
                guard !mark.isEmpty, bytes.count >= mark.count else { return text }
                var start = bytes.count - mark.count
                while start >= 0 {
                    // The first byte alone first: comparing the whole mark at every place was
                    // most of the cost of a `methodName`'s last part.
                    if bytes[start] == mark[0], UnsafeBufferPointer(rebasing: bytes[start..<start + mark.count]).hasSameBytes(as: mark) {
                        return String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + mark.count)...]), as: UTF8.self)
                    }
                    start -= 1
                }
                return text
            }
        }
    }

    /// Where a lookup table holds the entry of a key written as a number, by its value: a text
    /// no YAML key is written as (it starts with NUL), so that no key of the table's own takes it.
    static func numberKey(_ number: String) -> String { "\u{0}number:" + JSONNumber.normalize(number) }

    /// A table key or a last part can be read from strings, numbers and booleans.
    static func text(of value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let number): number.text
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }

    /// How messages name the expression: its path, or its kind.
    var shortDescription: String {
        switch self {
        case .path(let path), .bound(_, let path): "'\(path)'"
        case .constant(let value): "'\(value.displayText)'"
        default: "the value"
        }
    }
}

/// A regular expression in a mapping, compiled once when the mapping is loaded.
struct MappingRegex: @unchecked Sendable, Equatable {
    let source: String
    /// Immutable after loading, and `NSRegularExpression` matching is thread-safe.
    private let expression: NSRegularExpression

    init(_ source: String) throws {
        self.source = source
        expression = try NSRegularExpression(pattern: source)
    }

    /// Tells this expression apart from others while the mapping is loaded (`MappingMemo`'s key).
    var identity: ObjectIdentifier { ObjectIdentifier(expression) }

    static func == (lhs: MappingRegex, rhs: MappingRegex) -> Bool { lhs.source == rhs.source }

    var groupCount: Int { expression.numberOfCaptureGroups }

    func firstMatch(in text: String, group: Int) -> String? {
        let whole = NSRange(text.startIndex..., in: text)
        guard let match = expression.firstMatch(in: text, range: whole), group <= match.numberOfRanges - 1,
            let range = Range(match.range(at: group), in: text)
        else { return nil }
        return String(text[range])
    }
}

/// Why a record cannot be mapped (a value of the wrong kind, JSON or a token that does not
/// parse, a signature that fails): the record is invalid input at its file and line.
struct MappingFailure: Error, Sendable, Equatable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
