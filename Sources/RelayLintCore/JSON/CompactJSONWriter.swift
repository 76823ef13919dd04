/// Writes compact JSON (no whitespace) into bytes, for files relaylint writes and reads back
/// itself (partials). Members must be written in the order the caller wants them; `value(_:)`
/// writes a tree with its keys sorted, so the same tree gives the same bytes.
struct CompactJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the container being written has a member or element already.
    private var needsComma = false

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func object(_ body: (inout CompactJSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array<Elements: Sequence>(_ elements: Elements, _ write: (inout CompactJSONWriter, Elements.Element) -> Void) {
        open(UInt8(ascii: "["))
        for element in elements {
            separate()
            needsComma = false
            write(&self, element)
            needsComma = true
        }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Starts an object member; its value follows.
    mutating func key(_ name: String) {
        separate()
        JSONStringEscaping.append(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ text: String) {
        JSONStringEscaping.append(text, to: &bytes)
        needsComma = true
    }

    mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    /// A tree, object keys in ascending order, numbers as they were written.
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): bytes.append(contentsOf: number.text.utf8)
        case .string(let text): JSONStringEscaping.append(text, to: &bytes)
        case .array(let elements): array(elements) { $0.value($1) }
        case .object(let members):
            object { writer in
                for key in members.keys.sorted() {
                    writer.key(key)
                    writer.value(members[key]!)
                }
            }
        }
        needsComma = true
    }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma = false
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}
