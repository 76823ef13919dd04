import Plot

/// Escaping for values from the inputs that the HTML report puts into Plot nodes.
///
/// Plot escapes `<` and `>` in text nodes but lets `&name;` and `&#…;` through as entities, so
/// an event id written as `&lt;` would show as `<`; it does not escape attribute values at all,
/// so a `"` in a value would end the attribute. Every value that comes from an input (subject
/// and event ids, paths, rule texts, messages) therefore goes through `Node.escapedText` or
/// `Node.escapedAttribute`, never through Plot's `.text` or a string literal. Text is escaped
/// here completely and handed to Plot as markup: Plot's own pass over it, a character at a time,
/// was a third of the time a report of 100,000 findings took (20 s, where JSON took 2).
///
/// Line breaks and other control characters become numeric character references: they show as
/// they would have, but a value can never start a line of the output. A report printed to a CI
/// log cannot carry a `::workflow-command::` of its own that way, nor terminal escapes.
enum HTMLEscaping {
    /// The markup of a text: `&`, `<` and `>` as references, line breaks and control characters
    /// as numeric ones. Most values (ids, times, paths) are printable ASCII without those three:
    /// they are their own markup, found so by their bytes.
    static func text(_ value: String) -> String {
        let isOwnMarkup = value.utf8.allSatisfy { byte in
            byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<") && byte != UInt8(ascii: ">")
        }
        if isOwnMarkup { return value }
        var output = ""
        output.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            default: append(scalar, to: &output)
            }
        }
        return output
    }

    /// A complete attribute value, which Plot writes between double quotes as it is.
    static func attribute(_ value: String) -> String {
        var output = ""
        output.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            default: append(scalar, to: &output)
            }
        }
        return output
    }

    /// The URL of a rule reference when the report may link it: only `http` and `https` links
    /// are made, so a rule file cannot plant a `javascript:` or `data:` link in a signed report.
    static func linkableURL(_ url: String?) -> String? {
        guard let url else { return nil }
        let lowercased = url.lowercased()
        guard lowercased.hasPrefix("https://") || lowercased.hasPrefix("http://"),
            !url.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " })
        else { return nil }
        return url
    }

    private static func append(_ scalar: Unicode.Scalar, to output: inout String) {
        // A reference to a bidi control would still reorder the text: it is printed visibly.
        if BidiControls.contains(scalar) {
            output += BidiControls.visible(scalar)
        } else if scalar.value < 0x20 && scalar != "\t" || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}"
            || scalar == "\u{2029}"
        {
            output += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
        } else {
            output.unicodeScalars.append(scalar)
        }
    }
}

extension Node {
    /// A text node holding a value from the inputs, escaped completely (see `HTMLEscaping`).
    static func escapedText(_ value: String) -> Node {
        .raw(HTMLEscaping.text(value))
    }

    /// An attribute whose value comes from the inputs or from the report's own text.
    static func escapedAttribute(named name: String, value: String) -> Node {
        .attribute(named: name, value: HTMLEscaping.attribute(value))
    }
}
