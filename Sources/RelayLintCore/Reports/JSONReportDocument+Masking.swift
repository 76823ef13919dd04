/// A JSON report read back and written again (`relaylint merge` of shard reports) masked as
/// `check` masks its own (contract §6): a shard may have been run with `--show-pii`, as its
/// order across shards asks, and the merged report is forwarded like any other. Masking what is
/// masked already changes nothing (`j•••@example.com` reads as no address), so shards run either
/// way merge into the same masked report.
extension JSONReportDocument {
    /// The report with what `Linter.maskPersonalData` and the report's assembly mask masked
    /// again: ids, messages, evidence, suppressions, skipped records' details, apps, notes.
    func masked(by masker: PIIMasker) -> JSONReportDocument {
        guard masker.isEnabled else { return self }
        var document = self
        for index in document.inputs.indices {
            guard var skipped = document.inputs[index].skippedRecords else { continue }
            for item in skipped.indices {
                skipped[item].reason = masker.mask(skipped[item].reason)
                skipped[item].detail = skipped[item].detail.map(masker.mask)
            }
            document.inputs[index].skippedRecords = skipped
        }
        for index in document.apps.indices { document.apps[index].bundleId = masker.mask(document.apps[index].bundleId) }
        for index in document.findings.indices {
            var finding = document.findings[index]
            let subject = finding.subject
            finding.subject = masker.maskSubjectID(subject)
            finding.app = masker.mask(finding.app)
            finding.message = masker.maskText(finding.message, keepingSubjectID: subject)
            finding.expected = masker.mask(finding.expected)
            finding.event = finding.event.map(masker.mask)
            for item in finding.evidence.indices {
                finding.evidence[item].event = masker.mask(finding.evidence[item].event)
                finding.evidence[item].type = masker.mask(finding.evidence[item].type)
                finding.evidence[item].note = finding.evidence[item].note.map(masker.mask)
            }
            finding.suppression = finding.suppression.map { $0.masked(by: masker) }
            document.findings[index] = finding
        }
        document.suppressions = document.suppressions.map { $0.masked(by: masker) }
        for index in document.skipped.indices { document.skipped[index].message = masker.mask(document.skipped[index].message) }
        for index in document.notes.indices { document.notes[index].message = masker.mask(document.notes[index].message) }
        return document
    }
}

extension JSONReportDocument.SuppressionEntry {
    /// As `Linter.masked(_:by:)` shows a suppression: its justification, author and subject.
    fileprivate func masked(by masker: PIIMasker) -> JSONReportDocument.SuppressionEntry {
        var entry = self
        entry.justification = masker.mask(justification)
        entry.author = masker.mask(author)
        entry.subject = subject.map(masker.maskSubjectID)
        entry.fingerprint = fingerprint.map(masker.mask)
        return entry
    }
}
