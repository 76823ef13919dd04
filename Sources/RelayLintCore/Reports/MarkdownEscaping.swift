/// Escaping for values from the inputs in the Markdown report.
///
/// Every character that Markdown (CommonMark and GitHub's extensions) could read as syntax gets
/// a backslash, which CommonMark allows before any ASCII punctuation: emphasis, code spans,
/// links, raw HTML, headings, table pipes, entities, strikethrough and math. Line breaks become
/// `<br>`, so a value stays inside its table cell or paragraph and never starts a line of its
/// own: neither a new Markdown block nor, in a CI log, a `::workflow-command::`. Other control
/// characters become numeric character references. Mentions and bare URLs are broken with an
/// invisible `autolinkBreak`, so a value cannot notify anyone or plant a link.
enum MarkdownEscaping {
    /// Backslash-escaped wherever they appear.
    static let significant: Set<Unicode.Scalar> = ["\\", "|", "*", "_", "`", "<", ">", "[", "]", "#", "&", "~", "$"]

    /// Whether `significant` holds a scalar, by a table of ASCII: a set's hash for every scalar
    /// of every value was a fifth of the time a Markdown report took to write.
    static func isSignificant(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x80 && significantASCII[Int(scalar.value)] }

    private static let significantASCII: [Bool] = (0..<0x80).map { significant.contains(Unicode.Scalar(UInt8($0))) }

    /// A value as inline Markdown text, safe in a paragraph, a heading and a table cell.
    ///
    /// Written as UTF-8 bytes: appended to a `String` a scalar at a time, escaping was most of
    /// the time a report of thousands of findings took to write.
    static func inline(_ value: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(value.utf8.count + 16)
        let scalars = Array(value.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            defer { index += 1 }
            if isLineBreak(scalar) {
                output.append(contentsOf: "<br>".utf8)
                // CR LF is one line break.
                if scalar == "\r", index + 1 < scalars.count, scalars[index + 1] == "\n" { index += 1 }
                continue
            }
            if isSignificant(scalar) {
                output.append(UInt8(ascii: "\\"))
                output.append(UInt8(scalar.value))
            } else if BidiControls.contains(scalar) {
                // Visible, its backslash escaped: `\u{202E}` as the text report prints it.
                output.append(UInt8(ascii: "\\"))
                output.append(contentsOf: BidiControls.visible(scalar).utf8)
            } else if scalar.value < 0x20 && scalar != "\t" || (0x7F...0x9F).contains(scalar.value) {
                output.append(contentsOf: ("&#x" + String(scalar.value, radix: 16, uppercase: true) + ";").utf8)
            } else {
                UTF8.encode(scalar) { output.append($0) }
            }
            if breaksAutolink(after: index, in: scalars) { output.append(contentsOf: autolinkBreak.utf8) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// What `Character.isNewline` calls a line break.
    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    // MARK: Mentions and autolinks

    /// A zero-width space, as a character reference: invisible, but it keeps GitHub from reading
    /// `@name` as a mention (which notifies that user or team) and keeps GFM's autolinks from
    /// turning `https://…`, `www.…` or `name@domain` in a value into a link. Backslash escapes and
    /// other entities do not: both are resolved before mentions and autolinks are found.
    static let autolinkBreak = "&#8203;"

    /// Whether `autolinkBreak` goes between `scalars[index]` and the next scalar: after an `@`
    /// that a letter or digit follows (a mention, or an email autolink when PII is shown; a
    /// masked address with a dotted domain, `j•••@example.com`, is neither), before the `:` of
    /// `scheme://`, and before the `.` of a `www.` that starts a word.
    static func breaksAutolink(after index: Int, in scalars: [Unicode.Scalar]) -> Bool {
        guard index + 1 < scalars.count else { return false }
        let scalar = scalars[index]
        let next = scalars[index + 1]
        if scalar == "@" {
            guard isASCIIAlphanumeric(next) else { return false }
            guard index > 0, scalars[index - 1] == "•" else { return true }
            // A masked address's domain with a dot (`example.com`) is no mention; one without
            // (`j•••@admins`, mail on a private network) reads as `@admins`.
            var end = index + 1
            while end < scalars.count, isASCIIAlphanumeric(scalars[end]) || scalars[end] == "-" { end += 1 }
            return !(end + 1 < scalars.count && scalars[end] == "." && isASCIIAlphanumeric(scalars[end + 1]))
        }
        if next == ":" {
            return index + 3 < scalars.count && scalars[index + 2] == "/" && scalars[index + 3] == "/"
                && isASCIIAlphanumeric(scalar)
        }
        if next == ".", index >= 2 {
            let www = scalars[(index - 2)...index].allSatisfy { $0 == "w" || $0 == "W" }
            return www && (index == 2 || !isASCIIAlphanumeric(scalars[index - 3]))
        }
        return false
    }

    private static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar))
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
