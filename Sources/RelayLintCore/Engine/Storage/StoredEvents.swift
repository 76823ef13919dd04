/// A subject's events as the dataset holds them from the moment they are read until the subject
/// is evaluated: packed into the dataset's arena, each linked to the subject's event before it.
///
/// Millions of events wait in memory for their subject's turn. As `Event`s they held 500 bytes
/// or so each in five to ten allocations (the fields list, every string longer than 15 bytes);
/// packed, an event is its id, its fields' values and a few small numbers (about 60 bytes), with
/// the strings every event repeats (type, app, field names, file) in a `NameTable`. The parse
/// workers pack (`pack`), the ingest appends the bytes, the evaluation unpacks a subject's events
/// just before it replays them, and every unpacked event equals the event packed.
struct StoredEvents: Sendable {
    /// The position of the subject's last event in the arena; each event's record starts with
    /// the position of the one before it plus one (0 for the first), so a subject costs 8 bytes
    /// here and its events cost their bytes plus a link of about 6 bytes.
    private var last = -1

    var isEmpty: Bool { last < 0 }

    /// Appends an event's packed form to `bytes`. Its discriminator is not packed: it is known
    /// only at ingest, for the rare reused id, and the dataset keeps it by sequence number.
    /// - Returns: where the id's bytes lie in `bytes`, and the name-table indices of the event's
    ///   type and app, which a prepared event carries too (looked up again, they were two more
    ///   searches of the worker's names for every event).
    @discardableResult
    static func pack(_ event: borrowing Event, names: inout NameTable.Cache, into bytes: inout [UInt8]) -> Packed {
        var writer = PackedWriter(bytes: consume bytes)
        let head = Head(
            time: event.time, sequence: event.sequence, type: names.index(of: event.type),
            app: event.app.map { names.index(of: $0) }, file: names.index(of: event.location.file), line: event.location.line,
            column: event.location.column)
        var id = event.id
        let idBytes = id.withUTF8 { head.write(id: $0, fieldCount: event.fields.count, into: &writer) }
        for (key, value) in event.fields {
            writer.count(names.index(of: key))
            writer.value(value)
        }
        bytes = writer.bytes
        return Packed(id: idBytes, type: head.type, app: head.app)
    }

    /// What `pack` tells of the event it packed.
    struct Packed {
        /// Where the id's bytes lie.
        let id: Range<Int>
        /// The indices in the name table of the type and the app (nil for none).
        let type: Int
        let app: Int?
    }

    /// What a packed event begins with; its fields follow, each its key's index in the name
    /// table and its value (`PackedWriter.value`), sorted by key.
    struct Head {
        var time: Timestamp
        var sequence: UInt64
        /// Indices in the name table.
        var type: Int
        var app: Int?
        var file: Int
        var line: Int
        var column: Int?

        /// Writes the head and the id; returns where the id's bytes lie in `writer.bytes`.
        func write(id: UnsafeBufferPointer<UInt8>, fieldCount: Int, into writer: inout PackedWriter) -> Range<Int> {
            // Seconds and the nanoseconds beyond them (6 bytes for a log's times, against 8).
            writer.signed(time.seconds)
            writer.count(Int(time.nanosecondOfSecond))
            writer.count(Int(sequence))
            writer.count(type)
            writer.count(app.map { $0 + 1 } ?? 0)
            writer.string(bytes: id)
            let idBytes = writer.bytes.count - id.count..<writer.bytes.count
            writer.count(file)
            // 0 for the line the sequence number holds, as it does for every line of a log.
            let sequenceLine = EventLogReader.fileAndLine(of: sequence).line
            writer.count(line == sequenceLine ? 0 : line + 1)
            writer.count(column.map { $0 + 1 } ?? 0)
            writer.count(fieldCount)
            return idBytes
        }
    }

    /// Appends one event packed by `pack`.
    mutating func append(packed: UnsafeBufferPointer<UInt8>, in arena: inout PackedArena) {
        let previous = last
        last = arena.append(packed, prefixCount: previous + 1)
    }

    /// The events in the order they were appended; `subject` is the subject's id (not stored
    /// per event), `names` the name table's snapshot, `discriminators` those of reused ids by
    /// sequence number; events whose sequence number is in `duplicates` are left out.
    func events(
        subject: String, names: [String], discriminators: [UInt64: String], duplicates: Set<UInt64>, arena: PackedArena
    ) -> [Event] {
        // The links run backwards: the positions first, then the events in the order appended,
        // each moved into the array (reversing an array of events copied every one).
        var positions: [Int] = []
        var position = last
        while position >= 0 {
            positions.append(position)
            var reader = arena.reader(at: position)
            position = reader.count() - 1
        }
        var events: [Event] = []
        events.reserveCapacity(positions.count)
        for position in positions.reversed() {
            var reader = arena.reader(at: position)
            _ = reader.count()
            let time = Timestamp(seconds: reader.signed(), nanosecondOfSecond: Int32(reader.count()))
            let sequence = UInt64(reader.count())
            if !duplicates.isEmpty, duplicates.contains(sequence) { continue }
            let type = names[reader.count()]
            let appPlusOne = reader.count()
            let id = reader.string()
            let file = names[reader.count()]
            let linePlusOne = reader.count()
            let line = linePlusOne == 0 ? EventLogReader.fileAndLine(of: sequence).line : linePlusOne - 1
            let columnPlusOne = reader.count()
            let fieldCount = reader.count()
            var fields: [EventFields.Element] = []
            fields.reserveCapacity(fieldCount)
            for _ in 0..<fieldCount {
                let key = names[reader.count()]
                fields.append((key, reader.value()))
            }
            events.append(
                Event(
                    id: id, time: time, subject: subject, type: type, app: appPlusOne == 0 ? nil : names[appPlusOne - 1],
                    fields: EventFields(sortedUniqueMembers: fields),
                    location: SourceLocation(file: file, line: line, column: columnPlusOne == 0 ? nil : columnPlusOne - 1),
                    sequence: sequence))
            if !discriminators.isEmpty { events[events.count - 1].discriminator = discriminators[sequence] }
        }
        return events
    }
}
