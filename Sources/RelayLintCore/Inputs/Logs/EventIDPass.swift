// The id pass over a log joined by Apple user id and given before other logs
// (`MappedLogReader.eventIDs`): its records are mapped on every core for their events' ids
// alone, a batch per thread.

/// A mapper of the id pass (`MappedLogReader.eventIDs`) and the ids of the batch it mapped last.
final class IDMapper: @unchecked Sendable {
    private let mapper: RecordMapper
    private var events: [RecordMapper.MappedEvent] = []
    private(set) var found: [String] = []

    init(mapper: RecordMapper) { self.mapper = mapper }

    /// Maps the records at `spans`, keeping the ids of their events in `found`; a record that
    /// gives none, or is invalid, adds nothing (the read itself tells about it).
    func ids(of spans: [MappedLogReader.RecordSpan], in bytes: UnsafeBufferPointer<UInt8>) {
        found.removeAll(keepingCapacity: true)
        for span in spans {
            events.removeAll(keepingCapacity: true)
            guard (try? mapper.map(parsing: UnsafeBufferPointer(rebasing: bytes[span.bytes]), into: &events)) == .events else { continue }
            for event in events { if case .string(let id)? = event.id { found.append(id) } }
        }
    }
}

/// The id pass's batches and their mappers, one each, shared with the threads that map them.
struct IDBatches: @unchecked Sendable {
    let mappers: [IDMapper]
    let batches: [[MappedLogReader.RecordSpan]]
}
