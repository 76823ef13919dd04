import Foundation

/// Reads all inputs into a `Dataset`, streaming the logs and keeping only the events some rule
/// (or the identity model) can look at, while counting every record so that the report accounts
/// for all of them.
struct DatasetBuilder {
    let relayDomains: RelayDomains
    let skipInvalid: Bool
    /// Threads that parse log lines.
    var parallelism = 1
    /// Masks the ids the notes name, keeping the subject in an id made of it masked as the
    /// subject is, as findings show it (the notes are masked as free text at the end, which does
    /// not read `l-(0161) 496 0000` as a number). Off by default, and with `--show-pii`.
    var masker = PIIMasker(isEnabled: false)
    /// Told how far reading has come, after each run of lines.
    var progress: (@Sendable (LintProgress) -> Void)?
    /// The size of all logs, for the progress display.
    var totalEventBytes = 0
    private var eventBytesRead = 0
    /// With `--shard`: the slice whose subjects the rules evaluate.
    var shard: Shard?
    /// Event types kept for subjects outside the shard (what app-rule matchers can look at);
    /// nil keeps all.
    var outsideShardTypes: Set<String>? = []
    /// Event types to keep; nil keeps all (a rule matches events of any type).
    let retainedTypes: Set<String>?
    private(set) var dataset = Dataset()
    /// The invalid records met; with `--skip-invalid` only the first
    /// `InputLimits.listedInvalidRecords` are listed, the others counted.
    private(set) var invalid: InvalidRecordList
    /// Invalid records met without `--skip-invalid` before reading stops (`InputLimits`).
    var invalidLimit = InputLimits.invalidRecords
    /// Whether reading stopped at `invalidLimit` invalid records, or at one from a pipe: the
    /// caller reads nothing more.
    private(set) var stoppedEarly = false
    /// Tells, once everything is read, which events repeat an earlier one; until then the events
    /// whose id may have been used before (the suspects) are left out of the counts.
    private var duplicateCheck = DuplicateCheck()
    /// Events read, duplicates included, for the progress display.
    var eventsRead = 0
    /// Where a suspect was read when its sequence number does not say (a rule example's event).
    private var exampleLocations: [UInt64: SourceLocation] = [:]
    /// The `--events` paths by file index, to name where an id was first used.
    var eventPaths: [String] = []
    /// The note on an export of an old firebase-tools (`noteOldExport`), which follows the notes
    /// on the exports.
    var oldExportNote: Diagnostic?
    /// Where each log's summary is in `dataset.inputs`, by file index, for `finish` to add the
    /// suspects to.
    var eventInputs: [Int: Int] = [:]
    /// Look-alike relay addresses counted: those of accounts and of the events known to be kept.
    private var lookAlikeCount = 0
    /// Look-alikes given a note's place so far: those of accounts at once, those of the logs in
    /// `finish`.
    private var lookAlikesNoted = 0
    /// The events' look-alikes that may be among the first `noteLimit` of those kept, in input
    /// order; `finish` notes them once it knows which events are duplicates.
    private var lookAlikeCandidates: [(sequence: UInt64, field: String, address: String, location: SourceLocation)] = []
    /// The notes of links that name no identity (`LinkWithoutIdentity`), in input order, until
    /// `2 × noteLimit` of them are known to be kept (not suspects of being duplicates): a
    /// duplicate must not take a place in the list. Each note's text is kept once, by index.
    /// `finish` notes those that are not duplicates, and counts the rest among the notes not
    /// listed: those after the list, known to be kept, by number, the suspects by sequence.
    private var linkNoteCandidates: [(sequence: UInt64, text: Int32, location: SourceLocation)] = []
    private var linkNoteTexts: [String] = []
    private var linkNoteTextIndex: [String: Int32] = [:]
    private var linkNotesKept = 0
    private var linkNotesPastKept = 0
    private var linkNotesPastSuspects: [UInt64] = []
    /// Whether events of a type are kept, by the type's index in the name table (twice: outside
    /// and inside the shard); nil where not asked yet.
    private var retainedTypeCache: [Bool?] = []
    /// The apps of the events read, by index in the name table, until `finish` names them.
    private var appsSeen = AppsSeen()
    /// The input sequence number of the first event at `dataset.latest`, told as a place at the end.
    private var latestSequence: UInt64?
    /// `account.created`'s index in the name table.
    private let accountCreated: Int
    /// The types of the events whose Apple user id the account takes then: `account.created`,
    /// `signin`, `identity.linked`, by index in the name table.
    private let appleIDTakers: Set<Int>
    /// The types, apps, field names and files of the stored events, shared with the parse workers.
    let names = NameTable()
    static let noteLimit = 200
    /// The notes past the first `2 × noteLimit`, counted in a note of their own.
    private var notesNotListed = 0
    /// Which account holds each Apple user id, for the notifications read last.
    var appleAccounts = AppleAccountIndex()
    /// The `appleAccounts.revision` its untimed claims were last settled at: a folder of a
    /// thousand notification files settled them, reading each account back, once a file.
    private var appleClaimsSettledAt: Int?
    /// Whether accounts and events add their Apple user ids to `appleAccounts`: only when a log
    /// may be joined by them (`Linter.read` decides).
    var indexesAppleIDs = true
    /// The file indices of logs read through a mapping, whose sequence numbers hold the line
    /// shifted by `MappedLogReader.eventBits` (a record may give several events).
    var mappedFiles: Set<Int> = []
    /// Exported accounts with a relay top-level email, and exported `apple.com` entries: an
    /// export with the first and none of the second comes from firebase-tools before 15.19.
    var relayAccountsExported = 0
    var appleEntriesExported = 0

    /// Event types the identity model reads whatever the rules say.
    static let identityTypes: Set<String> = [
        "account.created", "signin", "identity.linked", "identity.unlinked", "account.deleted",
    ]

    init(relayDomains: RelayDomains, skipInvalid: Bool, retainedTypes: Set<String>?) {
        self.relayDomains = relayDomains
        self.skipInvalid = skipInvalid
        invalid = InvalidRecordList(limit: skipInvalid ? InputLimits.listedInvalidRecords : .max)
        self.retainedTypes = retainedTypes.map { $0.union(DatasetBuilder.identityTypes) }
        accountCreated = names.index(of: "account.created")
        appleIDTakers = [accountCreated, names.index(of: "signin"), names.index(of: "identity.linked")]
    }

    /// Writes the packed events and accounts to `file`, in partitions by subject, as they are
    /// read, instead of holding them; called before anything is read.
    mutating func spill(to file: SpillFile, layout: PartitionedArena.Layout) {
        precondition(dataset.subjects.count == 0, "spilling is chosen before reading")
        dataset.storage = PartitionedArena(layout: layout, spillingTo: file)
        // Records are a fifth of a log's size or less; a quarter of the partitions, in small
        // chunks, keep what stays in memory while reading to a few mebibytes.
        let recordLayout = PartitionedArena.Layout(
            partitions: max(1, layout.partitions / 4), largestChunk: min(layout.largestChunk, 64 << 10))
        duplicateCheck = DuplicateCheck(layout: recordLayout, spillingTo: file)
    }

    /// Lists a file the run read besides the data (the subject map, the key set).
    mutating func addInput(_ summary: InputFileSummary) { dataset.inputs.append(summary) }

    mutating func setManifest(_ manifest: AppManifest, sha256: String) {
        dataset.manifest = manifest
        dataset.inputs.append(InputFileSummary(path: manifest.path, kind: .manifest, sha256: sha256, records: manifest.entries.count))
    }

    /// Reads one JSON Lines log. Invalid records are collected; `finish` decides whether they stop the run.
    /// - Parameter opened: a pipe already opened (and begun) to recognise its format.
    mutating func readEvents(path: String, fileIndex: Int, opened: OpenedInput? = nil) throws(InputError) {
        var reader = EventLogReader(path: path, fileIndex: fileIndex, parallelism: parallelism)
        reader.opened = opened
        if eventPaths.count <= fileIndex { eventPaths += Array(repeating: "", count: fileIndex + 1 - eventPaths.count) }
        eventPaths[fileIndex] = path
        var summary = InputFileSummary(path: path, kind: .events, sha256: "", records: 0)
        duplicateCheck.reserveCapacity(FileBytes.estimatedLineCount(path: path))
        let preparation = PreparedEvent.Preparation(relayDomains: relayDomains, shard: shard)
        let invalidBefore = invalid
        do {
            let bytesBefore = eventBytesRead
            let (sha256, records) = try reader.read(
                names: names, preparation: preparation,
                progress: { bytes in
                    eventBytesRead = bytesBefore + bytes
                    progress?(
                        LintProgress(
                            file: path, bytesRead: eventBytesRead, totalBytes: totalEventBytes, events: eventsRead))
                }
            ) { record, line, prepared in
                switch record {
                case .invalid(let diagnostic):
                    summary.invalid += 1
                    try addInvalid(diagnostic, fromPipe: opened != nil)
                case .event(let event):
                    let time = event.time
                    if ingest(event, in: prepared, line: line) {
                        summary.firstTime = min(summary.firstTime ?? time, time)
                        summary.lastTime = max(summary.lastTime ?? time, time)
                    }
                }
            }
            summary.sha256 = sha256
            summary.records = records
        } catch let error as InputError {
            // Cut short under the reader, the log's last line read was cut too: the change is
            // what is wrong, which its error says once.
            if case .changedWhileRead = error { forgetInvalidRecords(since: invalidBefore) }
            throw error
        } catch {
            throw InputError.unreadable(path: path, reason: "\(error)")
        }
        eventInputs[fileIndex] = dataset.inputs.count
        dataset.inputs.append(summary)
    }

    /// Adds one event read outside a log (a rule example); `content` is its record.
    @discardableResult
    mutating func ingest(_ event: Event, digest: ContentDigest, content: JSONValue) -> Bool {
        var cache = NameTable.Cache(names)
        var bytes: [UInt8] = []
        let prepared = PreparedEvent.Preparation(relayDomains: relayDomains, shard: shard)
            .prepare(event, digest: digest, names: &cache, into: &bytes)
        let line = Array(content.canonicalText.utf8)
        return bytes.withUnsafeBufferPointer { buffer in line.withUnsafeBufferPointer { ingest(prepared, in: buffer, line: $0) } }
    }

    /// Adds one event a parse worker prepared: `buffer` holds its packed form, id and subject;
    /// `line` is its text, kept only when its id may have been used before. Returns whether the
    /// event is counted now; an event whose id may have been used before is counted by `finish`,
    /// once the duplicate check has told whether it repeats an earlier event.
    mutating func ingest(_ event: borrowing PreparedEvent, in buffer: UnsafeBufferPointer<UInt8>, line: UnsafeBufferPointer<UInt8>) -> Bool
    {
        ingest(event, in: buffer) { keep in keep(line) }
    }

    /// As `ingest(_:in:line:)`, with the line made only when the duplicate check keeps it.
    /// Borrowed: a mapped log's event is read where the worker's batch holds it, and a copy of
    /// it is a retain and a release of its location's file and of its look-alikes.
    mutating func ingest(
        _ event: borrowing PreparedEvent, in buffer: UnsafeBufferPointer<UInt8>,
        line withLine: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void
    ) -> Bool {
        eventsRead += 1
        let suspect = duplicateCheck.record(
            key: event.idKey, digest: event.digest, id: UnsafeBufferPointer(rebasing: buffer[event.id]), sequence: event.sequence,
            time: event.time, lookAlikes: event.lookAlikes.count, line: withLine)
        if suspect, let location = event.location, location != self.location(of: event.sequence) {
            exampleLocations[event.sequence] = location
        }
        if !suspect {
            dataset.eventCount += 1
            dataset.eventsPerDay[event.time.utcDayNumber, default: 0] += 1
        }
        // A duplicate has its first use's time, app and type: these do not wait for the answer.
        dataset.earliest = min(dataset.earliest ?? event.time, event.time)
        if dataset.latest.map({ event.time > $0 }) ?? true {
            dataset.latest = event.time
            latestSequence = event.sequence
        }
        appsSeen.insert(app: event.app, creating: event.type == accountCreated)
        for (field, text) in event.lookAlikes {
            // Past the first `noteLimit` look-alikes of events known to be kept, none is noted.
            if lookAlikeCount < DatasetBuilder.noteLimit {
                lookAlikeCandidates.append((event.sequence, field, text, event.location ?? location(of: event.sequence)))
            }
            if !suspect { lookAlikeCount += 1 }
        }
        if let note = event.linkNote {
            if linkNotesKept < DatasetBuilder.noteLimit * 2 {
                let text = linkNoteTextIndex[note] ?? Int32(linkNoteTexts.count)
                if text == linkNoteTexts.count {
                    linkNoteTexts.append(note)
                    linkNoteTextIndex[note] = text
                }
                linkNoteCandidates.append((event.sequence, text, event.location ?? location(of: event.sequence)))
                if !suspect { linkNotesKept += 1 }
            } else if suspect {
                linkNotesPastSuspects.append(event.sequence)
            } else {
                linkNotesPastKept += 1
            }
        }
        let retained = isRetained(event.type, inShard: event.inShard)
        if indexesAppleIDs, let appleID = event.appleID {
            // An unlink names the id the account gives up: it holds it, but did not take it then.
            appleAccounts.add(
                appleID: appleID, subject: String(decoding: UnsafeBufferPointer(rebasing: buffer[event.subject]), as: UTF8.self),
                since: appleIDTakers.contains(event.type) ? event.time : nil)
        }
        let subject = dataset.subjects.insert(UnsafeBufferPointer(rebasing: buffer[event.subject]), hash: event.subjectHash)
        let partition = dataset.storage.partition(ofHash: event.subjectHash)
        // A duplicate is stored too (its first use's subject, never before it in input order);
        // the evaluation leaves it out.
        Self.record(
            event, retained: retained, packed: UnsafeBufferPointer(rebasing: buffer[event.packed]),
            isCreation: event.type == accountCreated,
            in: &dataset.subjects[subject], storage: &dataset.storage.partitions[partition])
        return !suspect
    }

    /// Tells the Apple account index when each account whose claim has no time (a subject-map
    /// row, an unlink, an export without `createdAt`) began: the export's `createdAt` of the
    /// account (an old export lists it without its `apple.com` entry, which the map supplies),
    /// else its first event. Asked of the subjects' table once the other logs are read, before
    /// the notifications are joined; told event by event, an account's events before its claim
    /// were missed.
    mutating func settleAppleClaimsWithoutATime() {
        guard appleClaimsSettledAt != appleAccounts.revision else { return }
        defer { appleClaimsSettledAt = appleAccounts.revision }
        for subject in appleAccounts.untimedSubjects {
            let hash = SubjectTable.hash(of: subject)
            guard let index = dataset.subjects.index(of: subject, hash: hash) else { continue }
            let position = dataset.subjects[index].accountPosition
            let partition = dataset.storage.partition(ofHash: hash)
            // An export whose record cannot be read back (a spill file gone) tells nothing.
            let created =
                position < 0
                ? nil
                : (try? dataset.storage.partitions[partition].readerReadingBack(at: position)).flatMap { reader in
                    var reader = reader
                    return StoredAccount.unpack(&reader).createdAt
                }
            guard let since = created ?? dataset.subjects[index].firstEvent?.time else { continue }
            appleAccounts.noteBeginning(of: subject, at: since)
        }
        // Each notification's join is then a binary search of its id's claims.
        appleAccounts.orderClaims()
    }

    /// An id a log read later gives at an earlier place in the input order (`expectIDs`).
    mutating func expectEventID(_ id: String) { duplicateCheck.expect(IDKey(id)) }

    /// The logs joined by Apple user id, read after every other input, begin.
    mutating func beginLogsReadLast() { duplicateCheck.stopExpecting() }

    /// Whether events of a type (its index in the name table) are kept, asked once per event:
    /// the answer is remembered by index.
    private mutating func isRetained(_ type: Int, inShard: Bool) -> Bool {
        let slot = type * 2 + (inShard ? 1 : 0)
        if slot < retainedTypeCache.count, let known = retainedTypeCache[slot] { return known }
        let retained = (inShard ? retainedTypes : outsideShardTypes)?.contains(names.name(at: type)) ?? true
        if slot >= retainedTypeCache.count { retainedTypeCache += Array(repeating: nil, count: slot + 1 - retainedTypeCache.count) }
        retainedTypeCache[slot] = retained
        return retained
    }

    /// Where the event of an input sequence number was read.
    func location(of sequence: UInt64) -> SourceLocation {
        var (fileIndex, line) = EventLogReader.fileAndLine(of: sequence)
        if mappedFiles.contains(fileIndex) { line >>= MappedLogReader.eventBits }
        return SourceLocation(file: fileIndex < eventPaths.count ? eventPaths[fileIndex] : "", line: line)
    }

    private static func record(
        _ event: borrowing PreparedEvent, retained: Bool, packed: UnsafeBufferPointer<UInt8>, isCreation: Bool,
        in subject: inout Dataset.Subject, storage: inout PackedArena
    ) {
        let position = Dataset.EventPosition(time: event.time, sequence: event.sequence, app: Int32(event.app ?? -1))
        if subject.firstEvent.map(position.precedes) ?? true {
            subject.firstEvent = position
        }
        if isCreation, subject.firstCreation.map(position.precedes) ?? true {
            subject.firstCreation = position
        }
        guard retained else { return }
        subject.events.append(packed: packed, in: &storage)
    }

    /// Reads one account export, JSON or CSV by extension (`.csv`, or `.csv.gz` compressed).
    ///
    /// Accounts are read before the logs: their notes come at once, the logs' once `finish`
    /// knows the duplicates, and notes are listed (and capped) in that order.
    mutating func readAccounts(path: String) throws(InputError) {
        precondition(eventsRead == 0, "accounts are read before the logs")
        // Mapped, not read: the JSON reader lets each batch's pages go once it is packed.
        let isCSV = [".csv", ".csv.gz"].contains(where: path.lowercased().hasSuffix)
        let file = try MappedFile(
            path: path,
            capped: CappedRead(
                maxBytes: InputLimits.streamedBytes, kind: "an account export", maxLineBytes: isCSV ? InputLimits.lineBytes : nil,
                refusesNUL: !isCSV))
        if let encoding = file.withBytes({ TextEncoding.otherThanUTF8(startOf: $0) }) {
            try file.checkUnchanged()
            throw InputError.refused([Diagnostic(.error, encoding, at: SourceLocation(file: path, line: 1))])
        }
        if let problem = file.withBytes({ AccountExportShape.problem(startOf: $0, isCSV: isCSV) }) {
            try file.checkUnchanged()
            throw InputError.refused([Diagnostic(.error, problem.message, at: SourceLocation(file: path, line: problem.line))])
        }
        let sha256 = file.sha256()
        let bad: InvalidRecordList
        let records: Int
        var duplicates = 0
        if isCSV {
            let result = file.withBytes { bytes in
                let data = bytes.baseAddress.map {
                    Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: bytes.count, deallocator: .none)
                }
                // Without --skip-invalid, no more invalid rows than it takes to reach the cap.
                let room = skipInvalid ? Int.max : max(1, invalidLimit - invalid.count)
                return FirebaseCSVExportReader(path: path).read(
                    data: data ?? Data(), invalidLimit: room, listLimit: invalid.room)
            }
            (bad, records) = (result.invalid, result.records)
            if let line = result.header {
                addNote(
                    .note, "header row skipped: it names the columns (a Firebase CSV export has no header)",
                    at: SourceLocation(file: path, line: line))
            }
            for account in result.accounts where !add(account) { duplicates += 1 }
        } else {
            // Each account is packed as soon as its batch is read.
            var accounts = 0
            var reader = FirebaseJSONExportReader(path: path, parallelism: parallelism)
            reader.listLimit = invalid.room
            if !skipInvalid { reader.stopAfterInvalid = max(1, invalidLimit - invalid.count) }
            reader.doneWith = file.release
            do {
                bad = try file.withBytes { bytes throws(InputError) in
                    try reader.read(bytes: bytes) { account in
                        accounts += 1
                        if !add(account) { duplicates += 1 }
                    }
                }
            } catch {
                // Cut short under the reader, the file reads as zeros past its new end: its
                // change is what is wrong, not the NUL bytes it made the reader meet.
                try file.checkUnchanged()
                throw error
            }
            records = accounts + bad.count
        }
        try file.checkUnchanged()
        for diagnostic in bad.listed { try addInvalid(diagnostic, fromPipe: false) }
        invalid.addUnlisted(from: bad)
        dataset.inputs.append(
            InputFileSummary(
                path: path, kind: .accounts, sha256: sha256, records: records,
                invalid: bad.count, duplicates: duplicates))
    }

    /// Adds one exported account; false when the subject was already exported.
    mutating func add(_ account: AccountRecord) -> Bool {
        // One lookup: a subject already exported exists anyway, so adding it first changes nothing.
        let hash = SubjectTable.hash(of: account.localId)
        let subject = dataset.subjects.insert(account.localId, hash: hash)
        let partition = dataset.storage.partition(ofHash: hash)
        let position = dataset.subjects[subject].accountPosition
        if position >= 0 {
            // The first record may be in the spill file; if it cannot be read back, the note
            // goes without its place.
            let first = (try? dataset.storage.partitions[partition].readerReadingBack(at: position)).map { reader in
                var reader = reader
                return " at \(StoredAccount.unpack(&reader).location)"
            }
            addNote(
                .warning, "account '\(account.localId)' was already exported\(first ?? ""); the first record is used",
                at: account.location)
            return false
        }
        for entry in account.providers where entry.providerId == "apple.com" {
            appleEntriesExported += 1
            if indexesAppleIDs {
                for appleID in entry.appleUserIDs {
                    appleAccounts.add(appleID: appleID, subject: account.localId, since: account.createdAt)
                }
            }
        }
        if let email = account.email, relayDomains.isRelayAddress(email) { relayAccountsExported += 1 }
        // Keys (trimmed, lowercased) only for the rare address the byte prefilter lets through.
        let candidates = ([account.email] + account.providers.map(\.email)).compactMap { $0 }.filter(relayDomains.mayLookAlike)
        for address in Set(candidates.map(Identity.emailKey)).sorted() where relayDomains.isLookAlike(address) {
            addLookAlikeNote(address, field: "email", at: account.location)
        }
        dataset.subjects[subject].accountPosition = StoredAccount.pack(account).withUnsafeBufferPointer {
            dataset.storage.partitions[partition].append($0)
        }
        return true
    }

    /// Records a bad record of a log or an export. Without `--skip-invalid`, throws once `invalidLimit` are met,
    /// or at once for one read from a pipe or device: it may never end, and its writer may still
    /// be writing. The records met so far are thrown, and the builder is stopped.
    mutating func addInvalid(_ diagnostic: Diagnostic, fromPipe: Bool) throws(InputError) {
        invalid.append(diagnostic)
        guard !skipInvalid, fromPipe || invalid.count >= invalidLimit else { return }
        // The reason for stopping first: a long list is shortened at the end.
        let met =
            fromPipe
            ? invalid.listed
            : [
                Diagnostic(.error, InputLimits.stoppedAfterInvalid(invalid.count), at: diagnostic.location)
            ] + invalid.listed
        invalid.removeAll()
        stoppedEarly = true
        throw InputError.skippableRecords(met)
    }

    /// The error the reading of the log at `path` stopped with (a break in a JSON array's
    /// structure), after the invalid records of that log met before it, in input order: the
    /// records are handed over before the break is told, and an entry broken earlier went
    /// unnamed, or was told after the break.
    mutating func stopping(_ path: String, with error: InputError) -> InputError {
        guard case .refused(let diagnostics) = error, invalid.listed.contains(where: { $0.location.file == path }) else {
            return error
        }
        let met = invalid.listed.filter { $0.location.file == path }
        invalid.removeAll()
        stoppedEarly = true
        return .refused(inInputOrder(met + diagnostics))
    }

    /// Forgets the invalid records met since `earlier`: those of a file that changed under its
    /// reader, which tell of the change, not of the file.
    mutating func forgetInvalidRecords(since earlier: InvalidRecordList) { invalid = earlier }

    /// Records a bad record found outside a file read (rule examples).
    mutating func reject(_ diagnostic: Diagnostic) { invalid.append(diagnostic) }

    /// Ends reading: settles the duplicates, throws the invalid records unless they are to be
    /// skipped. Hands the dataset over and lets go of everything else, so that nothing read stays
    /// alive through the evaluation twice: through the builder's own copy of the dataset,
    /// everything the evaluation lets go of.
    mutating func finish() throws(InputError) -> Dataset {
        // Invalid records first: a run they stop needs no duplicate check.
        if !invalid.isEmpty, !skipInvalid { throw InputError.skippableRecords(inInputOrder(invalid.listed)) }
        try settleDuplicates()
        // Logs read out of the order given (Apple's notifications, read last to be joined) are
        // listed in that order, in the places the logs take among the inputs.
        let logPositions = eventInputs.values.sorted()
        let logsInOrder = eventInputs.sorted { $0.key < $1.key }.map { self.dataset.inputs[$0.value] }
        for (position, input) in zip(logPositions, logsInOrder) { self.dataset.inputs[position] = input }
        eventInputs = [:]
        self.dataset.notes = inInputOrder(self.dataset.notes)
        self.dataset.storage.finishAppending()
        var dataset = Dataset()
        swap(&dataset, &self.dataset)
        dataset.names = names.snapshot
        dataset.relayAccountsExported = relayAccountsExported
        dataset.appleEntriesExported = appleEntriesExported
        appsSeen.add(to: &dataset, names: dataset.names)
        dataset.latestLocation = latestSequence.map(location(of:))
        if !invalid.isEmpty {
            guard skipInvalid else { throw InputError.skippableRecords(inInputOrder(invalid.listed)) }
            dataset.skipped = inInputOrder(invalid.listed) + invalid.reported.dropFirst(invalid.listed.count)
        }
        // An empty log or export (an empty file, blank lines, a pipe whose command failed) would
        // otherwise give a clean "no findings": said first, as a warning.
        let empty = dataset.inputs.filter(\.readNothing).map { input in
            Diagnostic(.warning, LintReport.nothingReadMessage(input.path), at: SourceLocation(file: input.path))
        }
        dataset.notes.insert(contentsOf: empty, at: 0)
        if lookAlikeCount > DatasetBuilder.noteLimit {
            dataset.notes.append(
                DatasetBuilder.unlistedLookAlikesNote(
                    lookAlikeCount - DatasetBuilder.noteLimit, at: SourceLocation(file: dataset.inputs.first?.path ?? "")))
        }
        if notesNotListed > 0 {
            dataset.notes.append(
                DatasetBuilder.unlistedNotesNote(notesNotListed, at: SourceLocation(file: dataset.inputs.first?.path ?? "")))
        }
        return dataset
    }

    /// Asks the duplicate check which events repeat an earlier one, counts the suspects that do
    /// not, and writes the notes the logs gave rise to, in input order: reused ids, look-alikes.
    private mutating func settleDuplicates() throws(InputError) {
        let outcome: DuplicateCheck.Outcome
        do {
            outcome = try duplicateCheck.resolve(parallelism: parallelism)
        } catch {
            throw InputError.unreadable(path: error.directory, reason: error.description)
        }
        let inputOfFile = eventInputs
        for suspect in duplicateCheck.suspects {
            let input = inputOfFile[EventLogReader.fileAndLine(of: suspect.sequence).fileIndex]
            if outcome.duplicates.contains(suspect.sequence) {
                dataset.duplicateCount += 1
                if let input { dataset.inputs[input].duplicates += 1 }
                continue
            }
            dataset.eventCount += 1
            dataset.eventsPerDay[suspect.time.utcDayNumber, default: 0] += 1
            lookAlikeCount += Int(suspect.lookAlikes)
            if let input {
                dataset.inputs[input].firstTime = min(dataset.inputs[input].firstTime ?? suspect.time, suspect.time)
                dataset.inputs[input].lastTime = max(dataset.inputs[input].lastTime ?? suspect.time, suspect.time)
            }
        }
        duplicateCheck = DuplicateCheck()
        dataset.duplicates = outcome.duplicates
        // In input order, as the notes are: a log joined by Apple user id is read last.
        let lookAlikes = lookAlikeCandidates.filter { !outcome.duplicates.contains($0.sequence) }.sorted { $0.sequence < $1.sequence }
        lookAlikeCandidates = []
        var next = 0
        func noteLookAlikes(before sequence: UInt64) {
            while next < lookAlikes.count, lookAlikes[next].sequence < sequence {
                lookAlikesNoted += 1
                if lookAlikesNoted <= DatasetBuilder.noteLimit {
                    let candidate = lookAlikes[next]
                    dataset.notes.append(lookAlikeNote(candidate.address, field: candidate.field, at: candidate.location))
                }
                next += 1
            }
        }
        // Links that name no identity, in input order among the reused ids: a merge of partitions
        // lists the first notes of all in that order, and so must one run.
        let linkNotes = linkNoteCandidates.filter { !outcome.duplicates.contains($0.sequence) }
        linkNoteCandidates = []
        var nextLinkNote = 0
        func noteLinks(before sequence: UInt64) {
            while nextLinkNote < linkNotes.count, linkNotes[nextLinkNote].sequence < sequence {
                addNote(.warning, linkNoteTexts[Int(linkNotes[nextLinkNote].text)], at: linkNotes[nextLinkNote].location)
                nextLinkNote += 1
            }
        }
        for reuse in outcome.reuses {
            noteLookAlikes(before: reuse.suspect.sequence)
            noteLinks(before: reuse.suspect.sequence)
            addNote(
                .warning,
                "event id '\(masker.maskText(reuse.id, keepingSubjectID: reuse.subject))' was already used at "
                    + "\(location(of: reuse.firstUse)) with different content; both events are kept",
                at: exampleLocations[reuse.suspect.sequence] ?? location(of: reuse.suspect.sequence))
            // Findings on either event must not share a fingerprint: the reused id is told apart
            // by its content, stably across runs.
            dataset.discriminators[reuse.suspect.sequence] = reuse.contentKey
        }
        noteLookAlikes(before: .max)
        noteLinks(before: .max)
        notesNotListed += linkNotesPastKept + linkNotesPastSuspects.count { !outcome.duplicates.contains($0) }
        (linkNoteTexts, linkNoteTextIndex, linkNotesPastSuspects) = ([], [:], [])
    }

    /// A look-alike of an exported account, noted at once.
    private mutating func addLookAlikeNote(_ address: String, field: String, at location: SourceLocation) {
        lookAlikeCount += 1
        lookAlikesNoted += 1
        guard lookAlikesNoted <= DatasetBuilder.noteLimit else { return }
        dataset.notes.append(lookAlikeNote(address, field: field, at: location))
    }

    private func lookAlikeNote(_ address: String, field: String, at location: SourceLocation) -> Diagnostic {
        let domain = RelayDomains.domain(of: address) ?? address
        return Diagnostic(.note, "'\(field)' has domain '\(domain)'" + DatasetBuilder.lookAlikeNoteEnding, at: location)
    }

    /// How a look-alike note ends; `relaylint merge` tells them apart by it to list the first
    /// `noteLimit` of all partitions as one run does.
    static let lookAlikeNoteEnding = ", which looks like a relay domain but is not one; it is treated as a real address"
    private static let unlistedEnding = " more look-alike relay addresses are not listed"

    static func isLookAlikeNote(_ note: Diagnostic) -> Bool { note.message.hasSuffix(lookAlikeNoteEnding) }

    /// The note that says how many notes past the first `2 × noteLimit` (an export of a thousand
    /// accounts exported twice, say) are not listed: a report without it left them out unsaid.
    static func unlistedNotesNote(_ count: Int, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.note, "\(count)" + unlistedNotesEnding, at: location)
    }
    private static let unlistedNotesEnding = " more data-quality notes are not listed: a run lists its first \(noteLimit * 2)"

    /// The count an `unlistedNotesNote` gives; nil for any other note.
    static func unlistedNotes(in note: Diagnostic) -> Int? {
        guard note.severity == .note, note.message.hasSuffix(unlistedNotesEnding) else { return nil }
        return Int(note.message.dropLast(unlistedNotesEnding.count))
    }

    /// The note that says how many look-alikes are not listed.
    static func unlistedLookAlikesNote(_ count: Int, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.note, "\(count)" + unlistedEnding, at: location)
    }

    /// The count an `unlistedLookAlikesNote` gives; nil for any other note.
    static func unlistedLookAlikes(in note: Diagnostic) -> Int? {
        guard note.severity == .note, note.message.hasSuffix(unlistedEnding) else { return nil }
        return Int(note.message.dropLast(unlistedEnding.count))
    }

    /// The notes written so far.
    var notesSoFar: [Diagnostic] { dataset.notes }

    /// Diagnostics in input order, as a merge of partitions lists them: the exports' as they
    /// were read, then the logs' in the order given (a log joined by Apple user id is read last),
    /// each file's by line and column, the note on an old export after its exports' notes.
    private func inInputOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var firstSeen: [String: Int] = [:]
        for (place, diagnostic) in diagnostics.enumerated() where firstSeen[diagnostic.location.file] == nil {
            firstSeen[diagnostic.location.file] = place
        }
        let logs = Dictionary(eventPaths.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let keys = diagnostics.enumerated().map { place, diagnostic in
            let location = diagnostic.location
            if diagnostic == oldExportNote { return [0, Int.max, Int.max, 0, place] }
            let file = logs[location.file].map { [1, $0] } ?? [0, firstSeen[location.file] ?? 0]
            return file + [location.line, location.column ?? 0, place]
        }
        return keys.indices.sorted { keys[$0].lexicographicallyPrecedes(keys[$1]) }.map { diagnostics[$0] }
    }

    mutating func addNote(_ severity: Severity, _ message: String, at location: SourceLocation) {
        guard dataset.notes.count < DatasetBuilder.noteLimit * 2 else {
            notesNotListed += 1
            return
        }
        dataset.notes.append(Diagnostic(severity, message, at: location))
    }
}
