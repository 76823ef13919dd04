import Foundation

/// What a file given to `relaylint merge` says it is, from its top-level `format` and `shard`
/// members: a partial of a partitioned run, a shard's report, or something else.
///
/// Read with relaylint's parser, every other member checked and skipped rather than built: a
/// merge input is decoded whole only once it is known what it is, and only after its values are
/// counted (`JSONValueCount`). Foundation's decoder, asked for these two members, built the whole
/// document first: some fifty bytes a value.
public struct MergeInputHeader: Sendable, Equatable {
    /// The top-level `format`, when it is a string.
    public var format: String?
    /// Whether the top-level `shard` is there and not null.
    public var isShard: Bool

    /// Whether the file is a partial of a partitioned run (`check --partition`).
    public var isPartial: Bool { format == PartitionReport.formatName }

    /// The header of `data`; nil when it is not a JSON object.
    public static func read(_ data: Data) -> MergeInputHeader? {
        data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            var header = MergeInputHeader(format: nil, isShard: false)
            do throws(JSONParser.SyntaxError) {
                parser.skipWhitespace()
                try parser.parseObject(depth: 0, keys: keys) { key, parser throws(JSONParser.SyntaxError) in
                    switch key {
                    case 0?: header.format = try parser.parseValue(depth: 1).stringValue
                    case 1?:
                        parser.skipWhitespace()
                        header.isShard = parser.currentByte != UInt8(ascii: "n")
                        try parser.skipValue(depth: 1)
                    default: try parser.skipValue(depth: 1)
                    }
                }
            } catch {
                return nil
            }
            return header
        }
    }

    private static let keys = JSONKeys(["format", "shard"])
}

extension MergeInputHeader {
    /// A report or partial given to `merge` as a regular file, mapped rather than copied (a
    /// partial is tens of megabytes, and copying every one cost a second of page faults at 10M
    /// events), and guarded: a file cut short while it is merged reads as zeros past its new end,
    /// which the merge refuses as no partial, instead of ending the process with SIGBUS. Nil when
    /// it cannot be opened.
    public static func mapFile(path: String) -> Data? { (try? MappedFile(path: path, decompressing: false))?.data }

    /// A report or partial given to `merge` as a pipe (`<(gsutil cat …)`), read to its end up to
    /// `InputLimits.streamedBytes`: a writer that never stops grew the merge's memory until the
    /// machine ended it (24 GB in a minute). A regular file is mapped instead.
    public static func readStream(path: String) throws(DiagnosticsError) -> Data {
        do {
            return try FileBytes.read(path: path, limit: InputLimits.streamedBytes, kind: "a report or partial read from a pipe").data
        } catch {
            throw DiagnosticsError(error.diagnostics)
        }
    }
}
