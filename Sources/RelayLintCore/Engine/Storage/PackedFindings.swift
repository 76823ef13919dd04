/// Findings as the subject pass collects them: packed, until every subject is evaluated.
///
/// At 10M events the pass finds about 300k violations, and as `Finding` values each held about
/// 800 bytes in six allocations (the message, the fingerprint, the evidence and its notes):
/// 230 MB that piled up while the events were still in memory, and took the run's peak past
/// 500 MiB. Packed, a finding is its own text (subject, event ids, message, fingerprint) and
/// small numbers; the texts findings repeat (rule, app, what was expected, notes, event types,
/// file names) are kept once per batch. The report unpacks them once the events are gone, and
/// every unpacked finding equals the finding packed.
struct PackedFindings: Sendable {
    /// A run of findings and the repeated texts they refer to by index. Batches are not merged
    /// (that would renumber the texts): each worker's batch is added as it is.
    fileprivate struct Batch: Sendable {
        var writer = PackedWriter()
        var texts: [String] = []
        /// By UTF-8 bytes: `String`'s `==` equates canonically equivalent spellings, and each
        /// finding must get back the bytes it was made with (two files may differ only so).
        var textIndex: [NameTable.Name: Int] = [:]
        var count = 0

        mutating func text(_ text: String) -> Int {
            if let index = textIndex[NameTable.Name(text)] { return index }
            textIndex[NameTable.Name(text)] = texts.count
            texts.append(text)
            return texts.count - 1
        }
    }

    private var batches: [Batch] = []
    private var open = Batch()
    /// How many findings there are.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Packs a finding of the subject pass; suppressions are applied later, to unpacked findings.
    mutating func append(_ finding: Finding) {
        precondition(!finding.isSuppressed, "PackedFindings: findings are packed before suppressions apply")
        open.pack(finding)
        open.count += 1
        count += 1
    }

    /// Adds another collection's findings after these.
    mutating func append(contentsOf other: consuming PackedFindings) {
        closeOpenBatch()
        other.closeOpenBatch()
        batches.append(contentsOf: other.batches)
        count += other.count
    }

    private mutating func closeOpenBatch() {
        guard open.count > 0 else { return }
        open.textIndex = [:]
        batches.append(open)
        open = Batch()
    }

    /// The findings in the order appended. Each batch's bytes are let go of as soon as it is
    /// unpacked, so that packed and unpacked findings are not both held in full.
    consuming func unpacked() -> [Finding] {
        closeOpenBatch()
        var findings: [Finding] = []
        findings.reserveCapacity(count)
        for index in batches.indices {
            let batch = batches[index]
            batches[index] = Batch()
            var reader = PackedReader(bytes: batch.writer.bytes)
            for _ in 0..<batch.count { findings.append(batch.unpack(from: &reader)) }
        }
        return findings
    }
}

extension PackedFindings.Batch {
    fileprivate mutating func pack(_ finding: Finding) {
        // Written through a local writer: `text(_:)` changes the batch while the writer is in use.
        var writer = self.writer
        self.writer = PackedWriter()
        defer { self.writer = writer }
        writer.count(text(finding.rule))
        writer.count(text(finding.severity.rawValue))
        writer.string(finding.subject)
        writer.count(text(finding.app))
        writer.optionalString(finding.event)
        writer.optionalTime(finding.time)
        writer.string(finding.message)
        writer.string(finding.fingerprint)
        if let location = finding.location {
            writer.count(1)
            pack(location, into: &writer)
        } else {
            writer.count(0)
        }
        writer.count(text(finding.expected))
        writer.count(finding.evidence.count)
        for item in finding.evidence {
            writer.count(text(item.role.rawValue))
            writer.string(item.event)
            writer.count(text(item.type))
            writer.signed(item.time.seconds)
            writer.count(Int(item.time.nanosecondOfSecond))
            pack(item.location, into: &writer)
            writer.count(item.note.map { text($0) + 1 } ?? 0)
        }
    }

    private mutating func pack(_ location: SourceLocation, into writer: inout PackedWriter) {
        writer.count(text(location.file))
        writer.count(location.line)
        writer.count(location.column.map { $0 + 1 } ?? 0)
    }

    fileprivate func unpack(from reader: inout PackedReader) -> Finding {
        let rule = texts[reader.count()]
        let severity = Severity(rawValue: texts[reader.count()])!
        let subject = reader.string()
        let app = texts[reader.count()]
        let event = reader.optionalString()
        let time = reader.optionalTime()
        let message = reader.string()
        let fingerprint = reader.string()
        let location = reader.count() == 0 ? nil : unpackLocation(from: &reader)
        let expected = texts[reader.count()]
        let evidenceCount = reader.count()
        var evidence: [Evidence] = []
        evidence.reserveCapacity(evidenceCount)
        for _ in 0..<evidenceCount {
            let role = Evidence.Role(rawValue: texts[reader.count()])!
            let event = reader.string()
            let type = texts[reader.count()]
            let time = Timestamp(seconds: reader.signed(), nanosecondOfSecond: Int32(reader.count()))
            let location = unpackLocation(from: &reader)
            let notePlusOne = reader.count()
            evidence.append(
                Evidence(
                    role: role, event: event, type: type, time: time, location: location,
                    note: notePlusOne == 0 ? nil : texts[notePlusOne - 1]))
        }
        return Finding(
            rule: rule, severity: severity, subject: subject, app: app, event: event, time: time, message: message,
            fingerprint: fingerprint, location: location, expected: expected, evidence: evidence)
    }

    private func unpackLocation(from reader: inout PackedReader) -> SourceLocation {
        let file = texts[reader.count()]
        let line = reader.count()
        let columnPlusOne = reader.count()
        return SourceLocation(file: file, line: line, column: columnPlusOne == 0 ? nil : columnPlusOne - 1)
    }
}

extension PackedWriter {
    /// nil as 0, a time as 1, its seconds and the nanoseconds past them.
    fileprivate mutating func optionalTime(_ time: Timestamp?) {
        guard let time else { return count(0) }
        count(1)
        signed(time.seconds)
        count(Int(time.nanosecondOfSecond))
    }
}

extension PackedReader {
    fileprivate mutating func optionalTime() -> Timestamp? {
        count() == 0 ? nil : Timestamp(seconds: signed(), nanosecondOfSecond: Int32(count()))
    }
}
