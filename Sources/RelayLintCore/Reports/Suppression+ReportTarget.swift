extension Suppression {
    /// What the suppression accepts, as the CI reports name it when it expires:
    /// `fingerprint 6cbe…`, or `rule-id for subject`.
    var reportTarget: String {
        fingerprint.map { "fingerprint \($0)" } ?? (rule ?? "any rule") + (subject.map { " for \($0)" } ?? "")
    }
}
