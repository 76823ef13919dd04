/// Whether the slices a merge is given (partitions or shards) are every one of 1…N exactly once:
/// what is wrong with each file, then which are missing.
enum SliceCompleteness {
    /// How many missing slices a message lists.
    static let listLimit = 20

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
        // The count is the file's word: the first missing ones are listed, not all of them (a
        // forged count of 2000000000 listed, and held, 2 billion).
        let missingCount = count - seen.count
        if problems.isEmpty, missingCount > 0 {
            var listed: [Int] = []
            var index = 1
            while listed.count < listLimit, index <= count {
                if seen[index] == nil { listed.append(index) }
                index += 1
            }
            var list = listed.map { "\($0)/\(count)" }.joined(separator: ", ")
            if missingCount > listed.count { list += " and \(missingCount - listed.count) more" }
            problems.append(Diagnostic(.error, "\(file)\(missingCount == 1 ? "" : "s") missing: \(list)", at: SourceLocation(file: "")))
        }
        return problems
    }
}
