/// Escaping for values from the inputs in the Markdown report.
///
/// Every character that Markdown (CommonMark and GitHub's extensions) could read as syntax gets
/// a backslash, which CommonMark allows before any ASCII punctuation: emphasis, code spans,
/// links, raw HTML, headings, table pipes, entities, strikethrough and math. Line breaks become
/// `<br>`, so a value stays inside its table cell or paragraph and never starts a line of its
/// own: neither a new Markdown block nor, in a CI log, a `::workflow-command::`. Other control
/// characters become numeric character references.
enum MarkdownEscaping {
    /// Backslash-escaped wherever they appear.
    static let significant: Set<Unicode.Scalar> = ["\\", "|", "*", "_", "`", "<", ">", "[", "]", "#", "&", "~", "$"]

    /// A value as inline Markdown text, safe in a paragraph, a heading and a table cell.
    static func inline(_ value: String) -> String {
        var output = ""
        output.reserveCapacity(value.utf8.count)
        for character in value {
            if character.isNewline {
                output += "<br>"
                continue
            }
            for scalar in character.unicodeScalars {
                if significant.contains(scalar) {
                    output += "\\"
                    output.unicodeScalars.append(scalar)
                } else if scalar.value < 0x20 && scalar != "\t" || (0x7F...0x9F).contains(scalar.value) {
                    output += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }

    /// A link to an http(s) URL, `[title](url)`, or nil when the URL must not be linked (another
    /// scheme, such as `javascript:`). Characters that could end the destination or the link
    /// are percent-encoded.
    static func link(title: String, url: String) -> String? {
        guard let url = HTMLEscaping.linkableURL(url) else { return nil }
        var destination = ""
        for byte in url.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, byte > 0x20, byte != 0x7F, !"<>()[]\\`\"'|{}^".unicodeScalars.contains(scalar) {
                destination.unicodeScalars.append(scalar)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                destination += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return "[" + inline(title) + "](" + destination + ")"
    }
}
