/// An event as a parse worker hands it to the ingest: already packed (`StoredEvents.pack`),
/// with what the single-threaded ingest needs worked out beforehand — the id's hash, the
/// look-alike test, the shard — so that the ingest only files it, and the `Event` is freed on
/// the worker that made it.
struct PreparedEvent: Sendable {
    let id: String
    let subject: String
    let type: String
    let app: String?
    /// The app's index in the name table; -1 for none.
    let appName: Int32
    let time: Timestamp
    let sequence: UInt64
    let location: SourceLocation
    let idKey: IDKey
    /// `SubjectTable.hash(of: subject)`, worked out on the worker.
    let subjectHash: UInt64
    let digest: ContentDigest
    /// Whether the subject is in the `--shard` slice; always without one.
    let inShard: Bool
    /// String fields whose domain looks like a relay domain but is not one, in field order.
    let lookAlikes: [(field: String, text: String)]
    /// Where the packed event lies in its worker's buffer.
    let packed: Range<Int>

    /// What a worker runs on each event it parsed.
    struct Preparation: Sendable {
        let relayDomains: RelayDomains
        let shard: Shard?

        func prepare(
            _ event: consuming Event, digest: ContentDigest, names cache: inout NameTable.Cache, into bytes: inout [UInt8]
        ) -> PreparedEvent {
            let start = bytes.count
            StoredEvents.pack(event, names: &cache, into: &bytes)
            var lookAlikes: [(field: String, text: String)] = []
            for (field, value) in event.fields {
                if case .string(let text) = value, relayDomains.isLookAlike(text) { lookAlikes.append((field, text)) }
            }
            let subjectHash = SubjectTable.hash(of: event.subject)
            return PreparedEvent(
                id: event.id, subject: event.subject, type: event.type, app: event.app,
                appName: event.app.map { Int32(cache.index(of: $0)) } ?? -1, time: event.time, sequence: event.sequence,
                location: event.location, idKey: IDKey(event.id), subjectHash: subjectHash, digest: digest,
                inShard: shard.map { $0.contains(subjectHash: subjectHash) } ?? true, lookAlikes: lookAlikes,
                packed: start..<bytes.count)
        }
    }
}
