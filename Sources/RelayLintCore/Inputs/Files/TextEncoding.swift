/// Text in another encoding than UTF-8, told from its first bytes, so that every input says
/// what it is and how to convert it: Windows tools write "Unicode" text as UTF-16 (PowerShell 5's
/// `>` and `Out-File`, Notepad, Excel's "Unicode Text"), where a manifest, a rule or an account
/// export was called binary ("a NUL byte") or not JSON at its first character.
enum TextEncoding {
    /// What the bytes are when they start as UTF-16 or UTF-32 text (a byte order mark, or ASCII
    /// with NULs beside each character), with the command that converts them; nil otherwise.
    static func otherThanUTF8(startOf bytes: some Collection<UInt8>) -> String? {
        let start = Array(bytes.prefix(4))
        guard start.count >= 2 else { return nil }
        let encoding: String
        if start == [0xFF, 0xFE, 0, 0] || start == [0, 0, 0xFE, 0xFF] {
            encoding = "UTF-32"
        } else if start.count == 4, start[0] != 0 && start[1...] == [0, 0, 0] || start[..<3] == [0, 0, 0] && start[3] != 0 {
            encoding = "UTF-32"
        } else if start[..<2] == [0xFF, 0xFE] || start[..<2] == [0xFE, 0xFF] {
            encoding = "UTF-16"
        } else if start.count == 4,
            start[0] != 0 && start[1] == 0 && start[2] != 0 && start[3] == 0
                || start[0] == 0 && start[1] != 0 && start[2] == 0 && start[3] != 0
        {
            encoding = "UTF-16"
        } else {
            return nil
        }
        return "this is \(encoding) text; relaylint reads UTF-8 (convert it: iconv -f \(encoding) -t UTF-8 FILE > FILE.utf8)"
    }
}
