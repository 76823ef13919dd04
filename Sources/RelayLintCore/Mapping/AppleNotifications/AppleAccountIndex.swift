/// Which account holds an Apple user id (`sub`): what joins Apple's notifications, which name
/// no Firebase uid, to the accounts they concern.
///
/// Filled from the exported `apple.com` provider entries (`rawId`, and `federatedId` where it
/// differs), from events with `provider: apple.com` and a `value`, and from `--subject-map` rows.
///
/// One Apple user id can belong to two accounts one after the other: Apple gives a person the
/// same id in an app for as long as their Apple Account lasts, so a user who deletes their
/// account and signs in with Apple again gets a new uid with the old id. Each account's claim
/// keeps the earliest time it is known to hold the id (its first event naming it, its export's
/// `createdAt`); a claim with no time (a `--subject-map` row, which names the deleted account the
/// export no longer shows) holds it from the start. A notification goes to the account that took
/// the id last at or before the notification's time. When that does not tell (two claims from the
/// same instant, or both without a time; a notification older than every claim) it is not
/// joined, and counted as such, rather than given to either.
struct AppleAccountIndex: Sendable {
    /// An account holding an Apple user id, from when (nil when nothing it came from has a
    /// time: a subject-map row, an export without `createdAt`).
    struct Claim: Sendable, Equatable {
        let subject: String
        var since: Timestamp?
    }

    /// How a notification's Apple user id is joined.
    enum Join: Equatable {
        case subject(String)
        case noAccount
        case twoAccounts
    }

    /// The ids one account holds, nearly all of them; the others in `contested`. Kept apart so
    /// that an export of millions of accounts costs a claim per id, not a list.
    private var holders: [String: Claim] = [:]
    private var contested: [String: [Claim]] = [:]

    var isEmpty: Bool { holders.isEmpty && contested.isEmpty }

    /// Notes that `subject` holds `appleID` from `since` on (nil: from a time not known).
    mutating func add(appleID: String, subject: String, since: Timestamp? = nil) {
        guard !appleID.isEmpty else { return }
        if var claims = contested[appleID] {
            contested[appleID] = nil  // changed in place, not copied
            Self.merge(Claim(subject: subject, since: since), into: &claims)
            contested[appleID] = claims
        } else if var known = holders[appleID] {
            guard known.subject != subject else {
                known.since = Self.earlier(known.since, since)
                holders[appleID] = known
                return
            }
            holders[appleID] = nil
            contested[appleID] = [known, Claim(subject: subject, since: since)]
        } else {
            holders[appleID] = Claim(subject: subject, since: since)
        }
    }

    /// The one account that holds `appleID`, whatever the time: what the subject map checks its
    /// own rows against.
    func soleHolder(of appleID: String) -> String? { holders[appleID]?.subject }

    /// The account a notification about `appleID` sent at `time` concerns.
    func join(_ appleID: String, at time: Timestamp) -> Join {
        if let holder = holders[appleID] { return .subject(holder.subject) }
        guard let claims = contested[appleID] else { return .noAccount }
        // The claims taken at or before `time`, the latest of them; a claim without a time was
        // taken before any with one.
        var latest: Claim? = nil
        var tied = false
        for claim in claims {
            if let since = claim.since, since > time { continue }
            if let best = latest {
                switch (claim.since, best.since) {
                case (nil, nil): tied = true
                case (nil, _?): continue
                case (_?, nil): break
                case (let since?, let bestSince?):
                    if since == bestSince { tied = true }
                    guard since > bestSince else { continue }
                }
            }
            if latest == nil || claim.since != latest?.since { tied = false }
            latest = claim
        }
        guard let latest, !tied else { return .twoAccounts }
        return .subject(latest.subject)
    }

    private static func merge(_ claim: Claim, into claims: inout [Claim]) {
        if let index = claims.firstIndex(where: { $0.subject == claim.subject }) {
            claims[index].since = earlier(claims[index].since, claim.since)
        } else {
            claims.append(claim)
        }
    }

    /// The earlier of two times, a known one over an unknown one.
    private static func earlier(_ a: Timestamp?, _ b: Timestamp?) -> Timestamp? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// The reason a notification whose Apple user id no account holds is skipped under.
    static let noAccount = "no account for the Apple user id"
    /// The reason a notification whose Apple user id two accounts claim, with times that do not
    /// tell which held it when it was sent, is skipped under.
    static let twoAccounts = "Apple user id held by two accounts"
}
