/// Escaping for values from the inputs that go into GitHub-flavoured Markdown: the SARIF rule
/// help that code scanning renders, and the Actions step summary.
///
/// Subject and event ids, paths, messages and rule texts are attacker-controlled. Unescaped, a
/// `|` would split a table cell, `[text](url)` would plant a link, `<img …>` an HTML tag, `*` or
/// `_` would restyle the text, and a line break would let a value start a heading or a list. Every
/// Markdown-significant character is therefore backslash-escaped (CommonMark lets any ASCII
/// punctuation be escaped, also inside table cells) and line breaks become spaces, so a value
/// always renders as the literal text it is and stays inside its cell or paragraph. Mentions and
/// bare URLs get `MarkdownEscaping.autolinkBreak`, so a value cannot notify anyone or plant a link.
enum GitHubMarkdown {
    /// The value as literal inline text on one line.
    static func escape(_ value: String) -> String {
        var output = ""
        output.reserveCapacity(value.utf8.count)
        var atStart = true
        var leadingDigits = false
        let scalars = Array(value.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            defer { if MarkdownEscaping.breaksAutolink(after: index, in: scalars) { output += MarkdownEscaping.autolinkBreak } }
            if isBreakOrControl(scalar) {
                // A line break would end a table row or start a block; a control character has
                // no business in rendered text.
                if !atStart && !output.hasSuffix(" ") { output += " " }
                continue
            }
            if atStart && scalar == " " { continue }
            if BidiControls.contains(scalar) {
                // Visible, its backslash escaped: `\u{202E}` as the text report prints it.
                output += "\\" + BidiControls.visible(scalar)
                atStart = false
                continue
            }
            if MarkdownEscaping.isSignificant(scalar) {
                output += "\\"
            } else if atStart && (scalar == "-" || scalar == "+" || scalar == "=") {
                // Would start a list item or a setext underline where the value begins a line.
                output += "\\"
            } else if leadingDigits && (scalar == "." || scalar == ")") {
                // `1.` or `1)` would start an ordered list.
                output += "\\"
            }
            leadingDigits = (atStart || leadingDigits) && ("0"..."9").contains(scalar)
            atStart = false
            output.unicodeScalars.append(scalar)
        }
        while output.hasSuffix(" ") { output.removeLast() }
        return output
    }

    /// A link to a rule reference, or the escaped title and address as text when the address is
    /// not an `http(s)` URL a report may link (see `ReportURI.webURL`).
    static func link(title: String, url: String?) -> String {
        let text = escape(title)
        if let target = ReportURI.webURL(url) { return "[\(text.isEmpty ? escape(target) : text)](\(target))" }
        if let url, !url.isEmpty { return text + " (" + escape(url) + ")" }
        return text
    }

    /// The value cut to at most `limit` characters, with `…` when cut: one huge id must not
    /// crowd every other row out of a size-limited summary. Cut before escaping, so no escape
    /// is ever split.
    static func escape(_ value: String, limit: Int) -> String {
        guard value.count > limit else { return escape(value) }
        return escape(String(value.prefix(max(0, limit - 1)))) + "…"
    }

    private static func isBreakOrControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
