/// JSON values in documents made with `JSONEncoder` (the rule catalog's parameter values).
extension JSONValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .number(let number):
            // Integers stay integers; other numbers go as their value.
            if let integer = Int64(number.text) { try container.encode(integer) } else { try container.encode(number.value) }
        case .string(let text): try container.encode(text)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}
