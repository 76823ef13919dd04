/// Archives and compressions other than gzip, told by their first bytes: a log packed in one is
/// no log, and read as one, each member's header ran into its first line (a record lost per file
/// with `--skip-invalid`, at exit 0). Refused with how to read it, whatever format is named.
enum ArchiveFormat {
    /// Why a file that starts with `bytes` (at least its first 512 bytes, when it has them) is
    /// no log; nil when it is none of these.
    static func refusal(startOf bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let extract = "and pass the folder it holds with --events"
        if isTar(bytes) { return "this is a tar archive, not a log: extract it (tar xf FILE) \(extract)" }
        if starts(bytes, with: [0x50, 0x4B, 0x03, 0x04]) || starts(bytes, with: [0x50, 0x4B, 0x05, 0x06]) {
            return "this is a zip archive, not a log: extract it (unzip FILE) \(extract)"
        }
        if ["070701", "070702", "070707"].contains(where: { starts(bytes, with: Array($0.utf8)) })
            || starts(bytes, with: [0xC7, 0x71]) || starts(bytes, with: [0x71, 0xC7])
        {
            return "this is a cpio archive, not a log: extract it (cpio -id < FILE) \(extract)"
        }
        if starts(bytes, with: [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) {
            return "this is a 7z archive, not a log: extract it (7z x FILE) \(extract)"
        }
        let compressions: [(magic: [UInt8], name: String, command: String)] = [
            (Array("BZh".utf8), "bzip2", "bunzip2 -k FILE"), ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "xz", "xz -dk FILE"),
            ([0x28, 0xB5, 0x2F, 0xFD], "zstd", "zstd -d FILE"),
        ]
        for compression in compressions where starts(bytes, with: compression.magic) {
            // "BZh" starts words too: a bzip2 stream goes on with a block size digit and the
            // block's magic number.
            if compression.name == "bzip2",
                !(bytes.count >= 10 && (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[3])
                    && starts(bytes[4...], with: [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]))
            {
                continue
            }
            return "this is \(compression.name)-compressed data: relaylint decompresses gzip only; decompress it first "
                + "(\(compression.command)), or into a pipe (--events -)"
        }
        return nil
    }

    /// A tar header: its checksum at 148 (octal) is the sum of its 512 bytes with that field read
    /// as spaces, in every tar (POSIX and GNU ones also say "ustar" at 257, an old v7 one does
    /// not), and its fields are padded with NULs, which JSON text never holds. The "ustar" alone
    /// told a log whose first record held `mustard@example.com` at that place for an archive, and
    /// refused it whole (hostile 15, F1).
    private static func isTar(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 512, bytes[0] != 0, bytes[..<512].contains(0) else { return false }
        // The checksum field: octal digits, padded with spaces or NULs.
        var stored = 0
        var digits = 0
        for byte in bytes[148..<156] {
            if (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte) {
                stored = stored * 8 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            } else if byte != 0x20 && byte != 0 {
                return false
            }
        }
        guard digits > 0 else { return false }
        let sum = bytes[..<512].enumerated().reduce(0) { total, entry in
            total + ((148..<156).contains(entry.offset) ? 0x20 : Int(entry.element))
        }
        // A header of nothing (the archive's end) sums to 256: no member.
        return sum == stored && sum != 256
    }

    private static func starts<Bytes: Collection<UInt8>>(_ bytes: Bytes, with prefix: [UInt8]) -> Bool {
        bytes.count >= prefix.count && zip(bytes, prefix).allSatisfy { $0 == $1 }
    }
}
