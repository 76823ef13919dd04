/// URIs that machine-read reports (SARIF, Markdown links) build from input paths and from rule
/// references.
///
/// Paths and reference URLs come from the command line and from rule files, so they may hold
/// spaces, `%`, `#`, quotes or brackets. SARIF requires `uri` properties to be URI references and
/// code scanning resolves them against the checkout; a Markdown link destination ends at a space
/// or a parenthesis. Every byte that is not plainly safe is therefore percent-encoded, and only
/// `http`/`https` links are ever made from rule text, so a rule file cannot plant a
/// `javascript:` or `data:` link in a report.
enum ReportURI {
    /// A file path as a URI reference: a relative path stays relative (SARIF resolves it
    /// against `%SRCROOT%`), an absolute path becomes a `file://` URI.
    static func fileReference(_ path: String) -> (uri: String, isRelative: Bool) {
        if path.hasPrefix("/") {
            return ("file://" + percentEncode(path, keeping: isPathByte), false)
        }
        var relative = Substring(path)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        // `:` is encoded too (it is not a path byte here), so a first segment such as `c:` can
        // never be read as a URI scheme.
        return (percentEncode(String(relative), keeping: isPathByte), true)
    }

    /// A rule reference's URL when a report may link it: `http` or `https` only, with every
    /// byte that a URI or a Markdown link destination cannot hold percent-encoded; nil otherwise.
    static func webURL(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingWhitespace
        let lowercased = trimmed.lowercased()
        let scheme = lowercased.hasPrefix("https://") ? "https://" : lowercased.hasPrefix("http://") ? "http://" : nil
        guard let scheme, trimmed.utf8.count > scheme.utf8.count else { return nil }
        let bytes = Array(trimmed.utf8)
        var output = scheme
        var index = scheme.utf8.count
        while index < bytes.count {
            let byte = bytes[index]
            // Keep an existing escape; encode a stray `%`.
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit {
                output.append("%")
            } else if isURLByte(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += percentEscape(byte)
            }
            index += 1
        }
        return output
    }

    /// RFC 3986 unreserved characters and `/`: all a path needs to stay readable.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        byte.isASCIIAlphanumeric || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/")
    }

    /// Unreserved characters plus the delimiters a web URL's query and fragment use; not the
    /// parentheses, quotes, brackets and `<>` that would end a Markdown link destination.
    private static func isURLByte(_ byte: UInt8) -> Bool {
        isPathByte(byte) || "?#:@!$&*+,;=".utf8.contains(byte)
    }

    private static func percentEncode(_ text: String, keeping keep: (UInt8) -> Bool) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keep(byte) { output.unicodeScalars.append(Unicode.Scalar(byte)) } else { output += percentEscape(byte) }
        }
        return output
    }

    private static func percentEscape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }

    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
