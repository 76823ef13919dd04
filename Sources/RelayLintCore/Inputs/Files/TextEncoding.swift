/// Text in another encoding than UTF-8, told from its first bytes, so that every input says
/// what it is and how to convert it: Windows tools write "Unicode" text as UTF-16 (PowerShell 5's
/// `>` and `Out-File`, Notepad, Excel's "Unicode Text"), where a manifest, a rule or an account
/// export was called binary ("a NUL byte") or not JSON at its first character.
enum TextEncoding {
    /// What the bytes are when they start as UTF-16 or UTF-32 text, with the command that
    /// converts them; nil otherwise. A byte order mark says it; without one, the first two
    /// characters must be ASCII text with NULs beside each, in one byte order (NULs a crashed
    /// writer left before a line, `\0\0\0\n{…`, are no encoding).
    static func otherThanUTF8(startOf bytes: some Collection<UInt8>) -> String? {
        let start = Array(bytes.prefix(8))
        func text(_ byte: UInt8) -> Bool { (0x20...0x7E).contains(byte) || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        /// Whether `start` is two characters of `width` bytes, each an ASCII one at `place`.
        func ascii(width: Int, at place: Int) -> Bool {
            start.count >= 2 * width
                && (0..<(2 * width)).allSatisfy { index in index % width == place ? text(start[index]) : start[index] == 0 }
        }
        let encoding: String
        if start.starts(with: [0xFF, 0xFE, 0, 0]) || start.starts(with: [0, 0, 0xFE, 0xFF]) {
            encoding = "UTF-32"
        } else if start.starts(with: [0xFF, 0xFE]) || start.starts(with: [0xFE, 0xFF]) {
            encoding = "UTF-16"
        } else if ascii(width: 4, at: 0) {
            encoding = "UTF-32LE"
        } else if ascii(width: 4, at: 3) {
            encoding = "UTF-32BE"
        } else if ascii(width: 2, at: 0) {
            encoding = "UTF-16LE"
        } else if ascii(width: 2, at: 1) {
            encoding = "UTF-16BE"
        } else {
            return nil
        }
        let name = encoding.hasPrefix("UTF-16") ? "UTF-16" : "UTF-32"
        return "this is \(name) text; relaylint reads UTF-8 (convert it: iconv -f \(encoding) -t UTF-8 FILE > FILE.utf8)"
    }
}
