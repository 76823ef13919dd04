/// Which account holds an Apple user id (`sub`): what joins Apple's notifications, which name
/// no Firebase uid, to the accounts they concern.
///
/// Filled from the exported `apple.com` provider entries (`rawId`, and `federatedId` where it
/// differs), from events with `provider: apple.com` and a `value`, and from `--subject-map` rows. An id claimed by two
/// accounts is ambiguous: its notifications are not joined (and are counted as such) rather
/// than given to either.
struct AppleAccountIndex: Sendable {
    private var subjects: [String: String] = [:]
    private(set) var ambiguous: Set<String> = []

    var isEmpty: Bool { subjects.isEmpty }

    mutating func add(appleID: String, subject: String) {
        guard !appleID.isEmpty, !ambiguous.contains(appleID) else { return }
        if let known = subjects[appleID], known != subject {
            subjects[appleID] = nil
            ambiguous.insert(appleID)
            return
        }
        subjects[appleID] = subject
    }

    func subject(of appleID: String) -> String? { subjects[appleID] }

    /// The reason a notification whose Apple user id no account holds is skipped under.
    static let noAccount = "no account for the Apple user id"
    /// The reason a notification whose Apple user id two accounts claim is skipped under.
    static let twoAccounts = "Apple user id held by two accounts"
}
