/// Whether the slices a merge is given (partitions or shards) are every one of 1…N exactly once:
/// what is wrong with each file, then which are missing.
enum SliceCompleteness {
    /// - Parameters:
    ///   - kind: what one slice is called (`partition`, `shard`).
    ///   - file: what one slice's file is called, for the missing ones (`partial`, `shard report`).
    static func problems(_ slices: [(path: String, slice: Shard)], kind: String, file: String) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        let count = slices[0].slice.count
        var seen: [Int: String] = [:]
        for (path, slice) in slices {
            if slice.count != count {
                problems.append(
                    Diagnostic(
                        .error, "is \(kind) \(slice), but \(slices[0].path) is of \(Plural.counted(count, kind))",
                        at: SourceLocation(file: path)))
            } else if let earlier = seen[slice.index] {
                problems.append(Diagnostic(.error, "is \(kind) \(slice) again (also \(earlier))", at: SourceLocation(file: path)))
            } else {
                seen[slice.index] = path
            }
        }
        let missing = (1...count).filter { seen[$0] == nil }
        if problems.isEmpty, !missing.isEmpty {
            let list = missing.map { "\($0)/\(count)" }.joined(separator: ", ")
            problems.append(Diagnostic(.error, "\(file)\(missing.count == 1 ? "" : "s") missing: \(list)", at: SourceLocation(file: "")))
        }
        return problems
    }
}
