import Foundation

/// `relaylint explain FINGERPRINT --report report.json`: one finding of an earlier JSON report,
/// with its witness events, what was expected, and what was found. Addresses and phone numbers
/// are masked as a report masks them (contract §6), unless `masker` is off: a report written
/// with `--show-pii`, or edited, may hold them whole.
public enum FindingExplanation {
    public static func text(fingerprint: String, reportPath: String, masker: PIIMasker = PIIMasker()) throws(DiagnosticsError)
        -> String?
    {
        let data: Data
        do {
            data = try FileBytes.read(path: reportPath, limit: InputLimits.reportBytes, kind: "a JSON report").data
        } catch {
            throw DiagnosticsError(error.diagnostics)
        }
        let document = try JSONReportDocument.read(data, path: reportPath)
        let matches = document.findings.filter { $0.fingerprint.hasPrefix(fingerprint) }
        guard var finding = matches.first else { return nil }
        mask(&finding, by: masker)
        var lines: [String] = []
        lines.append("\(finding.severity): \(finding.message) [\(finding.rule)]")
        lines.append(
            "fingerprint: \(finding.fingerprint)"
                + (matches.count > 1 ? " (\(matches.count) findings share this prefix; showing the first)" : ""))
        lines.append(
            "subject: \(finding.subject), app: \(finding.app)" + (finding.event.map { ", event: \($0)" } ?? "")
                + (finding.time.map { " at \($0)" } ?? ""))
        if let location = finding.location { lines.append("where: \(location.file):\(location.line)") }
        lines.append("expected: \(finding.expected)")
        if finding.evidence.isEmpty {
            lines.append("found: no event of that kind")
        } else {
            lines.append("evidence (timeline order):")
            var previous: Timestamp?
            for item in finding.evidence {
                let time = Timestamp(rfc3339: item.time)
                var gap = ""
                if let previous, let time, previous <= time {
                    gap = " (+\(Self.duration(from: previous, to: time)))"
                }
                previous = time ?? previous
                lines.append(
                    "  \(item.time)\(gap)  \(item.role.padding(toLength: 12, withPad: " ", startingAt: 0)) \(item.type) \(item.event)  \(item.location.file):\(item.location.line)"
                )
                if let note = item.note { lines.append("      \(note)") }
            }
        }
        if let suppression = finding.suppression {
            lines.append("suppressed: \(suppression.justification) (\(suppression.author), until \(suppression.expires))")
        }
        // The report's values are the inputs': each line is escaped (`TerminalEscaping`).
        return lines.map(TerminalEscaping.escape).joined(separator: "\n") + "\n"
    }

    /// The finding's values as a report shows them: the subject as a subject id, the message
    /// keeping it so, every other value as text.
    private static func mask(_ finding: inout JSONReportDocument.FindingEntry, by masker: PIIMasker) {
        guard masker.isEnabled else { return }
        let subject = finding.subject
        finding.subject = masker.maskSubjectID(subject)
        finding.message = masker.maskText(finding.message, keepingSubjectID: subject)
        finding.app = masker.mask(finding.app)
        // Event ids keep the subject in them masked as the subject is (`maskPersonalData`).
        finding.event = finding.event.map { masker.maskText($0, keepingSubjectID: subject) }
        finding.expected = masker.mask(finding.expected)
        for index in finding.evidence.indices {
            finding.evidence[index].event = masker.maskText(finding.evidence[index].event, keepingSubjectID: subject)
            finding.evidence[index].type = masker.mask(finding.evidence[index].type)
            finding.evidence[index].note = finding.evidence[index].note.map(masker.mask)
        }
        if var suppression = finding.suppression {
            suppression.justification = masker.mask(suppression.justification)
            suppression.author = masker.mask(suppression.author)
            finding.suppression = suppression
        }
    }

    /// `3d 4h`, `12m 5s`: the gap between two evidence events, in whole seconds (counted in
    /// seconds: in nanoseconds, events more than 292 years apart showed 106751d 23h).
    static func duration(from start: Timestamp, to end: Timestamp) -> String {
        var seconds = end.seconds - start.seconds - (end.nanosecondOfSecond < start.nanosecondOfSecond ? 1 : 0)
        let days = seconds / 86_400
        seconds %= 86_400
        let parts = [(days, "d"), (seconds / 3600, "h"), (seconds / 60 % 60, "m"), (seconds % 60, "s")].filter { $0.0 > 0 }
        return parts.isEmpty ? "0s" : parts.prefix(2).map { "\($0.0)\($0.1)" }.joined(separator: " ")
    }
}
