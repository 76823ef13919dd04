import CYaml

/// Finds YAML aliases (`*name`) before a document is composed.
///
/// No relaylint file needs them, and they are how a small file becomes a huge tree ("billion
/// laughs"): nine anchors of nine aliases each are 9^9 nodes. Yams' composer shares an aliased
/// node rather than copying it, but everything that walks the tree then expands it (our
/// conversion to `YAMLTree`, and Yams' own duplicate-key check, which hashes an aliased
/// collection used as a key before `compose` returns). So the check reads libyaml's events, in
/// one pass over the text, and stops at the first alias: nothing is expanded at all.
///
/// libyaml's module comes with Yams (the composer is built on it); it is imported here directly
/// because Yams offers no event-level API.
enum YAMLAliases {
    struct Alias: Equatable {
        var name: String
        /// 1-based, as Yams' marks and our diagnostics count.
        var line: Int
        var column: Int
    }

    /// The first alias in `text`, or nil when there is none or the text stops being YAML first
    /// (the composer then reports the syntax error in its own words).
    static func first(in text: String) -> Alias? {
        // Every alias starts with '*': most files have none, and need no second parse.
        guard text.utf8.contains(UInt8(ascii: "*")) else { return nil }
        var text = text
        return text.withUTF8 { bytes -> Alias? in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return nil }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_ALIAS_EVENT:
                    let name = event.data.alias.anchor.map { String(cString: $0) } ?? ""
                    return Alias(name: name, line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
                case YAML_STREAM_END_EVENT:
                    return nil
                default:
                    continue
                }
            }
            return nil
        }
    }
}
