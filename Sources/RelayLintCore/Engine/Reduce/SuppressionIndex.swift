/// The suppressions of a run by what they match, so that each finding is looked up rather than
/// compared with every suppression: a register of 30,000 suppressions against 100,000 findings
/// took 45 s pair by pair.
///
/// A finding is matched by the suppressions of its fingerprint, of its rule and subject, and of
/// its rule alone, exactly those `Suppression.matches` accepts, in the order they are written.
struct SuppressionIndex {
    private var byFingerprint: [String: [Int]] = [:]
    private var byRuleAndSubject: [RuleAndSubject: [Int]] = [:]
    private var byRule: [String: [Int]] = [:]

    private struct RuleAndSubject: Hashable {
        let rule: String
        let subject: String
    }

    init(_ suppressions: [Suppression]) {
        for (number, suppression) in suppressions.enumerated() {
            if let fingerprint = suppression.fingerprint {
                byFingerprint[fingerprint, default: []].append(number)
            } else if let rule = suppression.rule {
                if let subject = suppression.subject {
                    byRuleAndSubject[RuleAndSubject(rule: rule, subject: subject), default: []].append(number)
                } else {
                    byRule[rule, default: []].append(number)
                }
            }
        }
    }

    /// The numbers of the suppressions that match `finding`, in the order they are written.
    func matches(_ finding: Finding) -> [Int] {
        let fingerprint = byFingerprint[finding.fingerprint] ?? []
        let subject = byRuleAndSubject[RuleAndSubject(rule: finding.rule, subject: finding.subject)] ?? []
        let rule = byRule[finding.rule] ?? []
        if subject.isEmpty && rule.isEmpty { return fingerprint }
        if fingerprint.isEmpty && rule.isEmpty { return subject }
        if fingerprint.isEmpty && subject.isEmpty { return rule }
        return (fingerprint + subject + rule).sorted()
    }
}
