/// Masking of what the engine reports beyond rule messages (contract §6): without `--show-pii`,
/// an email address or a phone number is masked wherever a report or standard error prints it,
/// also where it stands in an id (a subject id that is an address, an event or app id holding
/// one), in a finding's message (a partial's, which `merge` reads), in an input problem that
/// quotes a value, or in a suppression's justification.
///
/// Done once matching is over: fingerprints are made from the whole ids, and suppressions and
/// baselines are matched against them, before anything is masked.
extension Linter {
    /// Masks the findings' ids and evidence, keeping their order: findings sort by the whole
    /// subject id (contract §2.4), which masking only hides. Sorted again by the masked ids, two
    /// subjects that mask alike (`jane@` and `john@example.com`) had their findings interleaved
    /// by time, and the order changed with `--show-pii`.
    ///
    /// - Parameter citedSubjects: for the app findings (by fingerprint), which cite an event of
    ///   another subject (the first one the rule fired on for the app), that subject, by the
    ///   event's id as the evidence shows it.
    static func maskPersonalData(
        in findings: inout [Finding], masker: PIIMasker,
        citedSubjects: (byEvent: [String: String], appFindings: Set<String>) = ([:], [])
    ) {
        guard masker.isEnabled else { return }
        func mask(_ value: inout String) {
            let masked = masker.mask(value)
            if masked != value { value = masked }
        }
        for index in findings.indices {
            let subject = findings[index].subject
            // Printed as it is unless it is itself an address or a number (contract §6).
            let maskedSubject = masker.maskSubjectID(subject)
            if maskedSubject != subject { findings[index].subject = maskedSubject }
            mask(&findings[index].app)
            // Rendered from masked values in a run, but read from a partial by `merge`, and
            // a rule's own words may quote an address; the subject it names is masked as above.
            let message = masker.maskText(findings[index].message, keepingSubjectID: subject)
            if message != findings[index].message { findings[index].message = message }
            mask(&findings[index].expected)
            // An event id may be made of its subject's id (`mail-(0161) 496 0000`): the subject
            // in it is masked as the subject is, or the id printed whole what the subject hides.
            let citesOthers = citedSubjects.appFindings.contains(findings[index].fingerprint)
            func maskEventID(_ value: inout String) {
                let kept = citesOthers ? citedSubjects.byEvent[value] ?? subject : subject
                let masked = masker.maskText(value, keepingSubjectID: kept)
                if masked != value { value = masked }
            }
            if var event = findings[index].event {
                maskEventID(&event)
                findings[index].event = event
            }
            for item in findings[index].evidence.indices {
                maskEventID(&findings[index].evidence[item].event)
                // A type is any text a mapping makes of a record (`type: {path: action}`).
                mask(&findings[index].evidence[item].type)
                if var note = findings[index].evidence[item].note {
                    mask(&note)
                    findings[index].evidence[item].note = note
                }
            }
            if let suppression = findings[index].suppression {
                findings[index].suppression = masked(suppression, by: masker)
            }
        }
    }

    /// A suppression as a report shows it: its justification, subject and author masked (the
    /// author is often the reviewer's address, forwarded with the report). It has been matched
    /// already.
    static func masked(_ suppression: Suppression, by masker: PIIMasker) -> Suppression {
        guard masker.isEnabled else { return suppression }
        var suppression = suppression
        suppression.justification = masker.mask(suppression.justification)
        suppression.author = masker.mask(suppression.author)
        suppression.subject = suppression.subject.map(masker.maskSubjectID)
        // A fingerprint is hex; one written as anything else (an address pasted in by mistake)
        // matches nothing, and is shown as any text is.
        suppression.fingerprint = suppression.fingerprint.map(masker.mask)
        return suppression
    }

    /// The inputs' summaries with the reasons and details of their skipped records masked: a
    /// mapping takes a detail from the record (a method name, a status code, any field of the
    /// app's own log), which may hold an address or a number.
    static func masked(_ inputs: [InputFileSummary], by masker: PIIMasker) -> [InputFileSummary] {
        guard masker.isEnabled else { return inputs }
        return inputs.map { input in
            var input = input
            for index in input.skippedRecords.indices {
                input.skippedRecords[index].reason = masker.mask(input.skippedRecords[index].reason)
                input.skippedRecords[index].detail = input.skippedRecords[index].detail.map(masker.mask)
            }
            return input
        }
    }

    /// Diagnostics whose messages quote input values (`found 'jane@example.com'`), masked.
    static func masked(_ diagnostics: [Diagnostic], by masker: PIIMasker) -> [Diagnostic] {
        guard masker.isEnabled else { return diagnostics }
        return diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            diagnostic.message = masker.mask(diagnostic.message)
            return diagnostic
        }
    }
}
