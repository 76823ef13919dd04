#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Member keys looked for in a record's bytes, as `"key"`, before the record is parsed to learn
/// what it is: a record that mentions none of a format's keys is not of that format. A log of
/// another service's entries (skipped by the thousand in a Cloud Logging sink) was parsed whole
/// once more per record to say so, three times the time its reading took.
///
/// A key spelled with an escape (`"\u0073ubject"`) is not found: the test is for a note that
/// names a record's format, and only that note is missed.
struct KeyMentions: Sendable {
    private let quoted: [[UInt8]]
    /// Whether every key must be mentioned, or any one.
    private let requiresAll: Bool

    /// No key: every record may be of the format.
    init(_ keys: [String], all: Bool) {
        quoted = keys.map { Array("\"\($0)\"".utf8) }
        requiresAll = all
    }

    /// Whether the record mentions the keys (every one, or any one, as made).
    func match(_ record: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !quoted.isEmpty else { return true }
        return requiresAll
            ? quoted.allSatisfy { Self.find($0, in: record) } : quoted.contains { Self.find($0, in: record) }
    }

    /// Whether `key` (a quoted name) lies in `record`: each place of the name's last character,
    /// found by `memchr` (a quote, the last byte, is in every string), is compared with the key
    /// around it.
    private static func find(_ key: [UInt8], in record: UnsafeBufferPointer<UInt8>) -> Bool {
        guard key.count >= 3, key.count <= record.count, let base = record.baseAddress else { return false }
        let pivot = key.count - 2
        var from = pivot
        return key.withUnsafeBufferPointer { key in
            while from < record.count - 1, let hit = memchr(base + from, Int32(key[pivot]), record.count - 1 - from) {
                let start = UnsafeRawPointer(hit) - UnsafeRawPointer(base) - pivot
                if memcmp(base + start, key.baseAddress!, key.count) == 0 { return true }
                from = start + pivot + 1
            }
            return false
        }
    }
}
