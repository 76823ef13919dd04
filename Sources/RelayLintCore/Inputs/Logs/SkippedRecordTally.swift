/// The records of one input skipped on purpose, by reason and detail, as a report lists them: the
/// first `InputLimits.listedSkipDetails` entries one by one, and the records of any later detail
/// under their reason as `SkippedRecords.unlistedDetails`. A run and a `merge` of partitions
/// count through it alike.
struct SkippedRecordTally {
    /// In the order their reasons and details were first met.
    var records: [InputFileSummary.SkippedRecords] = []
    private var places: [Key: Int] = [:]

    private struct Key: Hashable {
        let reason: String
        let detail: String?
    }

    /// The place in `records` of the entry that counts records skipped for `reason` and `detail`,
    /// made (with a count of 0) when there is none yet.
    mutating func place(reason: String, detail: String?) -> Int {
        var key = Key(reason: reason, detail: detail)
        if places[key] == nil, detail != nil, records.count >= InputLimits.listedSkipDetails {
            key = Key(reason: reason, detail: InputFileSummary.SkippedRecords.unlistedDetails)
        }
        if let place = places[key] { return place }
        places[key] = records.count
        records.append(InputFileSummary.SkippedRecords(reason: key.reason, detail: key.detail, count: 0))
        return records.count - 1
    }
}
