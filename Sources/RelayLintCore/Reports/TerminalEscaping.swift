/// Escaping for values from the inputs that are printed where a terminal or a CI log reads them:
/// the text report, diagnostics on standard error and GitHub's workflow commands.
///
/// Subject and event ids, field values and file names are attacker-controlled. Printed raw, a line
/// break lets a value start a line of its own (in a GitHub Actions log, a forged
/// `::error file=…::` annotation or `::add-mask::`), an ESC starts a terminal control sequence
/// (colours, cursor moves, a window title, an OSC 8 link), and a bidi override or isolate makes
/// the text read differently from what it is. Each such scalar is written as a visible escape
/// instead, so nothing is lost: `\n`, `\r`, `\t`, and `\u{1B}` for the others (C0, DEL, C1 with
/// NEL U+0085, the line and paragraph separators U+2028 and U+2029, U+202A-U+202E and
/// U+2066-U+2069). Everything else, backslashes included, is printed as it is.
public enum TerminalEscaping {
    /// Whether the scalar is written as an escape.
    public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The value with every escaped scalar written as `\n`, `\r`, `\t` or `\u{HEX}`.
    public static func escape(_ value: String) -> String {
        guard needsEscaping(value) else { return value }
        var output = ""
        output.reserveCapacity(value.utf8.count + 8)
        for scalar in value.unicodeScalars {
            if isEscaped(scalar) {
                output += escape(scalar)
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// One scalar's escape.
    public static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// A quick look at the bytes: every escaped scalar starts with a byte below 0x20, 0x7F, or
    /// the lead byte 0xC2 (U+0080-U+00BF) or 0xE2 (U+2000-U+2FFF); plain text has none of them.
    static func needsEscaping(_ value: String) -> Bool {
        var copy = value
        let suspicious = copy.withUTF8 { bytes in bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 } }
        return suspicious && value.unicodeScalars.contains(where: isEscaped)
    }
}
