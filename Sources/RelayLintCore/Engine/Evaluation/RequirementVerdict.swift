/// The outcome of checking one requirement at one firing event.
enum RequirementVerdict {
    case satisfied
    /// Not decided yet: a `followed_by … within` window reaches past the end of the data.
    case pending
    case violated(RequirementFailure)
}

/// Why a requirement failed: what was expected and the steps that show it.
struct RequirementFailure {
    var expected: String
    /// Timeline indices with their role and a note, nearest first.
    var evidence: [(index: Int, role: Evidence.Role, note: String)]
    /// The step a message's `{witness.…}` placeholders refer to.
    var witness: Int?
}
