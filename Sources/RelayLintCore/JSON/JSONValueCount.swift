import Foundation

/// How many values a JSON document read whole may hold: counted before it is decoded, without
/// building anything, so that a document of tiny values is refused at its file instead of
/// taking the machine's memory.
///
/// The documents relaylint reads back (a baseline, a report to explain, the reports `merge`
/// takes) are decoded through Foundation's `JSONDecoder`, which keeps some fifty bytes for each
/// value: `{"x":[0,0,0,…]}` of 150 MB, a value every two bytes, asked for a 3.7 GB array and
/// stopped the process. A report relaylint writes holds a value every 40 bytes or so, a
/// partial of a partitioned run one every 30: a cap of one every 16 bytes past 32 million keeps
/// the decoding near three times the document's size, and refuses none of them.
public enum JSONValueCount {
    /// The offset where the document's values pass `limit`, or nil when they do not. Values are
    /// counted from above: one, and one for each comma and each opening bracket outside strings
    /// (a document that is not JSON is the decoder's to explain).
    static func offsetPast(_ limit: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var count = 1
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index = PlainTextScan.closingQuote(ofStringAt: index, in: bytes)
            case UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "{"):
                count += 1
                if count > limit { return index }
            default: break
            }
            index += 1
        }
        return nil
    }

    /// Refuses a document of `kind` ("a JSON report") at `path` holding more than
    /// `InputLimits.documentValues` values, and more than one for every
    /// `InputLimits.documentBytesPerValue` of its bytes, at the line and column where it passes
    /// them.
    public static func check(_ data: Data, path: String, kind: String) throws(DiagnosticsError) {
        try check(data, path: path, kind: kind, limit: limit(forBytes: data.count))
    }

    /// The most values a document of `count` bytes may hold.
    static func limit(forBytes count: Int) -> Int { max(InputLimits.documentValues, count / InputLimits.documentBytesPerValue) }

    static func check(_ data: Data, path: String, kind: String, limit: Int) throws(DiagnosticsError) {
        let refusal: Diagnostic? = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let offset = offsetPast(limit, in: bytes) else { return nil }
            let place = FileBytes.lineAndColumn(of: offset, in: bytes)
            return Diagnostic(
                .error,
                "stopped reading: \(kind) of more than \(limit) values, the cap on one read whole (\(InputLimits.documentValues), "
                    + "or one every \(InputLimits.documentBytesPerValue) bytes of a larger one; relaylint's reports and partials "
                    + "hold one every 30 to 45 bytes)",
                at: SourceLocation(file: path, line: place.line, column: place.column))
        }
        if let refusal { throw DiagnosticsError([refusal]) }
    }
}
