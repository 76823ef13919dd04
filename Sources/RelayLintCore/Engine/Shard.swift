/// One slice of the subjects, for spreading a check over several jobs (`--shard K/N`).
///
/// Every job reads all the inputs, so that what the report says about the inputs (records,
/// duplicates, notes, apps) is the same in each; it evaluates the subject rules only for the
/// subjects that hash into its slice. App rules depend on every subject: each job evaluates
/// their matchers over all subjects, and only shard 1 reports them, so that adding the shard
/// reports up (`relaylint merge`) gives the single run's report.
public struct Shard: Sendable, Hashable, Codable, CustomStringConvertible {
    /// 1-based, as CI matrices and `--shard 1/3` in test runners count.
    public let index: Int
    public let count: Int

    /// The most slices a run may be split into. A cluster's partitions number in the hundreds
    /// or thousands; a count beyond this is a typo (or a hostile partial) that would make
    /// millions of folders or arrays as long.
    public static let maximumCount = 4096

    public init?(index: Int, count: Int) {
        guard (1...Shard.maximumCount).contains(count), (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Read from a partial or a shard report with the bound `--partition K/N` and `--shard K/N`
    /// have: a count of 0 or less crashed the merge, and 1 ≤ K ≤ N is what the merge relies on.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let index = try container.decode(Int.self, forKey: .index)
        let count = try container.decode(Int.self, forKey: .count)
        guard let shard = Shard(index: index, count: count) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "\(index)/\(count) is not K/N with 1 ≤ K ≤ N ≤ \(Shard.maximumCount)")
            )
        }
        self = shard
    }

    private enum CodingKeys: String, CodingKey {
        case index, count
    }

    /// Parses `K/N` with 1 ≤ K ≤ N.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether the subject belongs to this shard: FNV-1a (64-bit) of its UTF-8 bytes, modulo the
    /// shard count. Fixed and documented, so that every machine slices alike.
    public func contains(subject: String) -> Bool {
        Shard.slot(of: subject, among: count) == index - 1
    }

    /// `contains(subject:)` for a subject whose `SubjectTable.hash(of:)` is known.
    func contains(subjectHash hash: UInt64) -> Bool { Shard.slot(ofHash: hash, among: count) == index - 1 }

    static func slot(of subject: String, among count: Int) -> Int { slot(ofHash: FNV1a.hash(subject), among: count) }

    private static func slot(ofHash hash: UInt64, among count: Int) -> Int { Int(hash % UInt64(count)) }
}
