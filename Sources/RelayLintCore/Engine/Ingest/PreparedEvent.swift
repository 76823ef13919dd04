/// An event as a parse worker hands it to the ingest: already packed (`StoredEvents.pack`),
/// with what the single-threaded ingest needs worked out beforehand — the id's hash, the
/// look-alike test, the shard — so that the ingest only files it. It holds no `String` of the
/// event's: the ingest reads the id and the subject as bytes from the worker's buffer, and the
/// names (type, app) as indices into the name table.
struct PreparedEvent: Sendable {
    /// The type's index in the name table.
    let type: Int
    /// The app's index in the name table; nil for none.
    let app: Int?
    let time: Timestamp
    let sequence: UInt64
    /// Where the event was read; nil when the fast scanner read it from a log (its sequence
    /// number names the line). The strict path sets it, to the same place for a log's line.
    let location: SourceLocation?
    let idKey: IDKey
    /// `SubjectTable.hash(of: subject)`, worked out on the worker.
    let subjectHash: UInt64
    let digest: ContentDigest
    /// Whether the subject is in the `--shard` slice; always without one.
    let inShard: Bool
    /// String fields whose domain looks like a relay domain but is not one, in key order (the
    /// order `EventFields` keeps).
    let lookAlikes: [(field: String, text: String)]
    /// The Apple user id of an event with `provider: apple.com` and a string `value`: it joins
    /// Apple's notifications to this event's subject.
    var appleID: String? = nil
    /// The data-quality note of a link or unlink that names no identity (`LinkWithoutIdentity`).
    var linkNote: String? = nil
    /// Where the packed event, its id and its subject lie in the worker's buffer.
    let packed: Range<Int>
    let id: Range<Int>
    let subject: Range<Int>

    /// What a worker runs on each event: the same for the fast scanner's events and the strict
    /// parser's.
    struct Preparation: Sendable {
        let relayDomains: RelayDomains
        let shard: Shard?

        /// Prepares an event the strict parser (or a rule example) made.
        func prepare(
            _ event: consuming Event, digest: ContentDigest, names: inout NameTable.Cache, into bytes: inout [UInt8]
        ) -> PreparedEvent {
            let start = bytes.count
            let stored = StoredEvents.pack(event, names: &names, into: &bytes)
            let packed = start..<bytes.count
            bytes.append(contentsOf: event.subject.utf8)
            var lookAlikes: [(field: String, text: String)] = []
            for (field, value) in event.fields {
                if case .string(let text) = value, relayDomains.isLookAlike(text) { lookAlikes.append((field, text)) }
            }
            var prepared = bytes.withUnsafeBufferPointer { buffer in
                self.prepared(
                    type: stored.type, app: stored.app, time: event.time, sequence: event.sequence, location: event.location,
                    digest: digest, lookAlikes: lookAlikes, packed: packed, id: stored.id, subject: packed.upperBound..<buffer.count,
                    in: buffer)
            }
            if event.fields["provider"] == .string("apple.com"), case .string(let value)? = event.fields["value"] {
                prepared.appleID = value
            }
            prepared.linkNote = LinkWithoutIdentity.note(type: event.type, kind: event.string("kind"), provider: event.string("provider"))
            return prepared
        }

        /// The prepared event whose packed form, id and subject lie in `buffer` at these ranges.
        func prepared(
            type: Int, app: Int?, time: Timestamp, sequence: UInt64, location: SourceLocation?, digest: ContentDigest,
            lookAlikes: [(field: String, text: String)], packed: Range<Int>, id: Range<Int>, subject: Range<Int>,
            in buffer: UnsafeBufferPointer<UInt8>
        ) -> PreparedEvent {
            let subjectHash = SubjectTable.hash(bytes: UnsafeBufferPointer(rebasing: buffer[subject]))
            return PreparedEvent(
                type: type, app: app, time: time, sequence: sequence, location: location,
                idKey: IDKey(bytes: UnsafeBufferPointer(rebasing: buffer[id])), subjectHash: subjectHash, digest: digest,
                inShard: shard.map { $0.contains(subjectHash: subjectHash) } ?? true, lookAlikes: lookAlikes, packed: packed,
                id: id, subject: subject)
        }
    }
}
