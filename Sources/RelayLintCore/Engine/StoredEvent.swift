/// An event as the dataset holds it from the moment it is read until its subject is evaluated.
///
/// Millions of events wait in memory for their subject's turn, so they wait packed: the id,
/// the fields and the rarely set parts go into one byte buffer, the few strings every event
/// repeats (type, app) stay shared, and the file is an index into the dataset's file table.
/// An `Event` held 600 bytes or so in five to ten allocations (the fields list, every string
/// longer than 15 bytes); a stored event is 56 bytes and one buffer of about a hundred. The evaluation unpacks a
/// subject's events just before it replays them, and the unpacked event equals the event stored.
struct StoredEvent: Sendable {
    let time: Timestamp
    let sequence: UInt64
    let type: String
    let app: String?
    /// id, location (the file as an index into the dataset's `sourceFiles`), discriminator and
    /// fields, in `PackedWriter`'s format.
    let packed: [UInt8]

    /// Packs an event read from one of `sourceFiles`' files (`file` is its index there).
    init(_ event: Event, file: Int) {
        time = event.time
        sequence = event.sequence
        type = event.type
        app = event.app
        var packer = PackedWriter()
        packer.bytes.reserveCapacity(event.id.utf8.count + 12 + event.fields.count * 40)
        packer.string(event.id)
        packer.count(file)
        packer.count(event.location.line)
        packer.count(event.location.column.map { $0 + 1 } ?? 0)
        packer.optionalString(event.discriminator)
        packer.count(event.fields.count)
        for (key, value) in event.fields {
            packer.string(key)
            packer.value(value)
        }
        packed = packer.bytes
    }

    /// The event as it was stored; `subject` is the subject's id (not stored per event).
    func event(subject: String, sourceFiles: [String]) -> Event {
        var reader = PackedReader(bytes: packed)
        let id = reader.string()
        let file = reader.count()
        let line = reader.count()
        let columnPlusOne = reader.count()
        let discriminator = reader.optionalString()
        let fieldCount = reader.count()
        var fields: [EventFields.Element] = []
        fields.reserveCapacity(fieldCount)
        for _ in 0..<fieldCount {
            let key = reader.string()
            fields.append((key, reader.value()))
        }
        var event = Event(
            id: id, time: time, subject: subject, type: type, app: app, fields: EventFields(sortedUniqueMembers: fields),
            location: SourceLocation(file: sourceFiles[file], line: line, column: columnPlusOne == 0 ? nil : columnPlusOne - 1),
            sequence: sequence)
        event.discriminator = discriminator
        return event
    }
}
