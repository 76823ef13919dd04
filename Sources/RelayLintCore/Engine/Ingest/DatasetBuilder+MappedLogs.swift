/// Reading a log through a mapping: its records become events that go the way of the native
/// log's (`ingest`), or are counted as skipped by reason; the report lists the original file.
extension DatasetBuilder {
    /// Reads one log a mapping describes. Notifications joined by Apple user id must be read
    /// after every other input, once the index of Apple user ids is complete.
    /// - Parameter otherMappings: the other formats `--events` reads, named in a note when
    ///   records of one of them are met in this log (and skipped as not of its format).
    mutating func readMappedEvents(
        path: String, fileIndex: Int, mapping: LogMapping, otherMappings: [LogMapping] = [], keys: SigningKeySet?,
        opened: OpenedInput? = nil
    ) throws(InputError) {
        if eventPaths.count <= fileIndex { eventPaths += Array(repeating: "", count: fileIndex + 1 - eventPaths.count) }
        eventPaths[fileIndex] = path
        mappedFiles.insert(fileIndex)
        var summary = InputFileSummary(path: path, kind: .events, sha256: "", records: 0)
        summary.format = mapping.id
        var made = 0
        var skipped = SkippedRecordTally()
        var unjoined: (count: Int, first: SourceLocation?) = (0, nil)
        var ambiguous: (count: Int, first: SourceLocation?) = (0, nil)
        var passedOver: (count: Int, first: SourceLocation?) = (0, nil)
        var unattributed: (count: Int, first: SourceLocation?) = (0, nil)
        var leftOut: (count: Int, records: Int, first: SourceLocation?) = (0, 0, nil)
        // By format, in the order first met: records of another format relaylint reads.
        var otherFormats: [(format: String, reason: String, count: Int, first: SourceLocation)] = []
        func skip(_ reason: String, _ detail: String?, at location: SourceLocation) {
            skipped.records[skipped.place(reason: reason, detail: detail)].count += 1
            if reason == AppleAccountIndex.noAccount {
                unjoined.count += 1
                unjoined.first = unjoined.first ?? location
            } else if reason == AppleAccountIndex.twoAccounts {
                ambiguous.count += 1
                ambiguous.first = ambiguous.first ?? location
            } else if reason == RecordMapper.noSubject {
                unattributed.count += 1
                unattributed.first = unattributed.first ?? location
            }
        }
        if mapping.joinsAppleIDs { settleAppleClaimsWithoutATime() }
        let invalidBefore = invalid
        var reader = MappedLogReader(
            path: path, fileIndex: fileIndex, mapping: mapping, keys: keys, appleAccounts: appleAccounts, parallelism: parallelism)
        reader.opened = opened
        reader.otherMappings = otherMappings
        let preparation = PreparedEvent.Preparation(relayDomains: relayDomains, shard: shard)
        let replay = MappedLogReader.ContentReplay(mapping: mapping, keys: keys)
        let totals: MappedLogReader.Totals
        do {
            totals = try reader.read(names: names, preparation: preparation) { delivery, record, batch in
                switch delivery {
                case .invalid(let diagnostic):
                    summary.invalid += 1
                    try addInvalid(diagnostic, fromPipe: opened != nil)
                case .skipped(let reason, let detail, let otherFormat):
                    skip(reason, detail, at: record.location(in: path))
                    if let otherFormat {
                        if let known = otherFormats.firstIndex(where: { $0.format == otherFormat && $0.reason == reason }) {
                            otherFormats[known].count += 1
                        } else {
                            otherFormats.append((otherFormat, reason, 1, record.location(in: path)))
                        }
                    }
                case .events(let positions, let leftOutWithoutSubject, let passedOverHere):
                    if passedOverHere > 0 {
                        passedOver.count += passedOverHere
                        passedOver.first = passedOver.first ?? record.location(in: path)
                    }
                    if leftOutWithoutSubject > 0 {
                        leftOut.count += leftOutWithoutSubject
                        leftOut.records += 1
                        leftOut.first = leftOut.first ?? record.location(in: path)
                    }
                    batch.bytes.withUnsafeBufferPointer { buffer in
                        // Each event read where the batch holds it, not copied out (`ingest`).
                        for position in positions {
                            made += 1
                            let time = batch.events[position].time
                            let counted = ingest(batch.events[position], in: buffer) { keep in
                                let subject = String(
                                    decoding: UnsafeBufferPointer(rebasing: buffer[batch.events[position].subject]), as: UTF8.self)
                                guard
                                    let content = replay.content(
                                        ofEvent: position - positions.lowerBound, in: record.bytes, subject: subject)
                                else {
                                    // Not reached (a mapping gives a record the same events each
                                    // time); the record's own text still tells its contents apart.
                                    assertionFailure(
                                        "record at line \(record.line) no longer gives event \(position - positions.lowerBound)")
                                    keep(record.bytes)
                                    return
                                }
                                // The content is the one the worker digested (tests run with this on).
                                assert(
                                    content.contentDigest == batch.events[position].digest,
                                    "the content mapped again differs from the worker's"
                                )
                                var text = JSONValue.object(content.members).canonicalText
                                text.withUTF8 { keep($0) }
                            }
                            if counted {
                                summary.firstTime = min(summary.firstTime ?? time, time)
                                summary.lastTime = max(summary.lastTime ?? time, time)
                            }
                        }
                    }
                }
            }
        } catch {
            // A file changed under the reader: the invalid records met in it tell only of the
            // change (zeros past a cut file's new end), which its error says once.
            if case .changedWhileRead = error {
                forgetInvalidRecords(since: invalidBefore)
                throw error
            }
            // A break in an array's structure, told after the entries broken before it.
            throw stopping(path, with: error)
        }
        summary.sha256 = totals.sha256
        summary.records = totals.records
        summary.eventsMade = made
        summary.skippedRecords = skipped.records
        // With keys, a log of Apple's format says how many were verified even when none
        // carried a token (decoded claims): "0 of 0" rather than nothing.
        if totals.tokensDecoded > 0 || (keys != nil && mapping.readsSignedTokens) {
            summary.signedTokens = totals.tokensDecoded
            summary.verifiedSignatures = keys == nil ? nil : totals.tokensVerified
        }
        eventInputs[fileIndex] = dataset.inputs.count
        addInput(summary)
        if unjoined.count > 0, let first = unjoined.first {
            addNote(
                .warning,
                "\(unjoined.count) Apple notification\(unjoined.count == 1 ? "" : "s") could not be joined to an account: no exported "
                    + "apple.com entry, event with provider apple.com, or --subject-map row holds the Apple user id; "
                    + "skipped, so rules on Apple's notifications did not see \(unjoined.count == 1 ? "it" : "them")",
                at: first)
        }
        if ambiguous.count > 0, let first = ambiguous.first {
            addNote(
                .warning,
                "\(ambiguous.count) Apple notification\(ambiguous.count == 1 ? "" : "s") name\(ambiguous.count == 1 ? "s" : "") an Apple user id "
                    + "that two accounts hold, and their times do not tell which held it when Apple sent it (a --subject-map row "
                    + "or an export without createdAt gives no time; a notification may be older than both): skipped rather than "
                    + "given to either, so rules on Apple's notifications did not see \(ambiguous.count == 1 ? "it" : "them")",
                at: first)
        }
        if passedOver.count > 0, let first = passedOver.first {
            addNote(
                .note,
                "\(passedOver.count) Apple notification\(passedOver.count == 1 ? "" : "s") name\(passedOver.count == 1 ? "s" : "") an Apple user id "
                    + "that two accounts had taken by the time Apple sent \(passedOver.count == 1 ? "it" : "them"): each was joined to the "
                    + "account that took the id last, as Apple gives a person's new account the id of one they deleted; where the "
                    + "earlier account was never deleted, check which of the two \(passedOver.count == 1 ? "it concerns" : "they concern")",
                at: first)
        }
        if unattributed.count > 0, let first = unattributed.first {
            addNote(
                .warning,
                "\(unattributed.count) record\(unattributed.count == 1 ? "" : "s") of '\(mapping.id)' would give events but name no account; skipped",
                at: first)
        }
        if leftOut.count > 0, let first = leftOut.first {
            addNote(
                .warning,
                "\(leftOut.records) record\(leftOut.records == 1 ? "" : "s") of '\(mapping.id)' gave events, but \(leftOut.count) more "
                    + "event\(leftOut.count == 1 ? "" : "s") of \(leftOut.records == 1 ? "it" : "them") named no account "
                    + "(a null or empty id in a list, such as a batch deletion's localIds): left out",
                at: first)
        }
        for other in otherFormats {
            let one = other.count == 1
            let unknown = other.format == MappedLogReader.unknownFormat
            let what =
                unknown
                ? (one ? "1 record is" : "\(other.count) records are") + " of no format relaylint reads (holding none of the keys "
                    + "'\(mapping.id)' recognises its records by)"
                : other.format == MappedLogReader.nativeFormat
                    ? (one ? "1 record is a relaylint event" : "\(other.count) records are relaylint events")
                    : (one ? "1 record is" : "\(other.count) records are") + " of \(other.format)"
            let remedy =
                unknown
                ? "if \(one ? "it is" : "they are") of a log of your own, give \(one ? "it" : "them") to --events in a file of "
                    + "\(one ? "its" : "their") own with a mapping (--mapping)"
                : "give \(one ? "it" : "them") to --events in a file of \(one ? "its" : "their") own"
            addNote(
                .warning,
                "\(what), not of '\(mapping.id)', the file's format: skipped as '\(other.reason)', so no rule saw "
                    + "\(one ? "it" : "them"); \(remedy)",
                at: other.first)
        }
        if totals.unsignedRecords > 0, keys != nil {
            addNote(
                .warning,
                "\(totals.unsignedRecords) record\(totals.unsignedRecords == 1 ? "" : "s") of '\(mapping.id)' carried no signed token "
                    + "(decoded claims): --apple-keys could not verify \(totals.unsignedRecords == 1 ? "it" : "them"), "
                    + "so \(totals.unsignedRecords == 1 ? "its" : "their") content rests on whoever decoded \(totals.unsignedRecords == 1 ? "it" : "them"); "
                    + "keep the bodies Apple POSTed to have every notification verified",
                at: SourceLocation(file: path))
        }
        if totals.tokensDecoded > 0, keys == nil {
            addNote(
                .note,
                "the signatures of \(totals.tokensDecoded) signed token\(totals.tokensDecoded == 1 ? " were" : "s were") not checked: "
                    + "pass Apple's key set with --apple-keys to verify them",
                at: SourceLocation(file: path))
        }
    }

    /// Notes the ids of a log that will be read after inputs given after it (a log joined by
    /// Apple user id waits for every other input): of two uses of an id, the one given first is
    /// the first use, whichever is read first (`DuplicateCheck.expect`).
    mutating func expectIDs(ofLog path: String, mapping: LogMapping, opened: OpenedInput?) throws(InputError) {
        var reader = MappedLogReader(path: path, fileIndex: 0, mapping: mapping, keys: nil, appleAccounts: appleAccounts)
        reader.opened = opened
        reader.parallelism = parallelism
        try reader.eventIDs { expectEventID($0) }
    }

    /// The note an export from firebase-tools before 15.19 deserves: relay addresses but no
    /// `apple.com` entries, so Apple user ids cannot be joined and anonymized identities are inferred.
    mutating func noteOldExport(path: String) {
        guard relayAccountsExported > 0, appleEntriesExported == 0 else { return }
        let note = Diagnostic(
            .warning,
            "the export lists \(relayAccountsExported) account\(relayAccountsExported == 1 ? "" : "s") with a relay address but no apple.com "
                + "provider entry: it was probably written by firebase-tools before 15.19, which leaves apple.com out; Apple user ids "
                + "cannot be joined from it and some findings may be missed (export again with firebase-tools 15.19 or later)",
            at: SourceLocation(file: path))
        addNote(note.severity, note.message, at: note.location)
        if dataset.notes.last == note { oldExportNote = note }
    }
}
