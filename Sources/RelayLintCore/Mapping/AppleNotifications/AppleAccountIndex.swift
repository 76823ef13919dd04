/// Which account holds an Apple user id (`sub`): what joins Apple's notifications, which name
/// no Firebase uid, to the accounts they concern.
///
/// Filled from the exported `apple.com` provider entries (`rawId`, and `federatedId` where it
/// differs), from events with `provider: apple.com` and a `value`, and from `--subject-map` rows.
///
/// One Apple user id can belong to two accounts one after the other: Apple gives a person the
/// same id in an app for as long as their Apple Account lasts, so a user who deletes their
/// account and signs in with Apple again gets a new uid with the old id. Each account takes the
/// id at the earliest time it is known to: its first `account.created`, `signin` or
/// `identity.linked` naming it, or its export's `createdAt`; an account known to hold it only
/// from a `--subject-map` row, an unlink or an export without `createdAt` takes it when the
/// account began (`DatasetBuilder.settleAppleClaimsWithoutATime`). A notification goes to the
/// account that took the id last at or before the notification's time. When that does not tell
/// (an account with no time at all, two that took it at one instant, a notification older than
/// both), it is not joined, and counted as such, rather than given to either.
struct AppleAccountIndex: Sendable {
    /// An account holding an Apple user id, from when (nil when nothing it came from has a time).
    private struct Claim: Sendable {
        let subject: String
        var since: Timestamp?
    }

    /// How a notification's Apple user id is joined.
    enum Join: Equatable {
        case joined(subject: String)
        /// No account holds the id.
        case unheld
        /// Two accounts hold it, and their times do not tell which held it then.
        case undecided
    }

    /// The accounts that claim one id, each once (`positions`: by subject, where its claim is).
    private struct Contest: Sendable {
        var claims: [Claim]
        var positions: [String: Int]

        init(_ first: Claim, _ second: Claim) {
            claims = [first, second]
            positions = [first.subject: 0, second.subject: 1]
        }

        mutating func add(subject: String, since: Timestamp?) {
            if let position = positions[subject] {
                claims[position].since = AppleAccountIndex.earlier(claims[position].since, since)
            } else {
                positions[subject] = claims.count
                claims.append(Claim(subject: subject, since: since))
            }
        }
    }

    /// The claims of one contested id ordered by when each account took it, for a binary search
    /// of a notification's time: a scan of every claim per notification made 64,000 accounts
    /// holding one id and as many notifications take 44 s.
    private struct Timeline: Sendable {
        /// When each account with a known time took the id, earliest first, and which it was.
        var times: [Timestamp] = []
        var subjects: [String] = []
        /// Whether an account took it at no known time: then no notification can be placed.
        var hasUntimedClaim = false

        init(_ contest: Contest, beginnings: [String: Timestamp]) {
            var timed: [(since: Timestamp, subject: String)] = []
            for claim in contest.claims {
                if let since = claim.since ?? beginnings[claim.subject] {
                    timed.append((since, claim.subject))
                } else {
                    hasUntimedClaim = true
                }
            }
            timed.sort { $0.since < $1.since }
            times = timed.map(\.since)
            subjects = timed.map(\.subject)
        }

        /// How many accounts had taken the id at or before `time`.
        func takenCount(by time: Timestamp) -> Int { times.partitioningIndex { $0 > time } }
    }

    /// The ids one account holds, nearly all of them; the others in `contested`. Kept apart so
    /// that an export of millions of accounts costs a claim per id, not a list.
    private var holders: [String: Claim] = [:]
    private var contested: [String: Contest] = [:]
    /// Each contested id's claims in time order, once `orderClaims()` has made them; an id
    /// claimed again since has none, and is ordered when a notification asks.
    private var timelines: [String: Timeline] = [:]
    /// The accounts with a claim without a time, and when each one began, told once every log
    /// but the notifications has been read (`noteBeginning`).
    private(set) var untimedSubjects: Set<String> = []
    private var beginnings: [String: Timestamp] = [:]

    var isEmpty: Bool { holders.isEmpty && contested.isEmpty }
    /// How many claims were added: what was settled and ordered at one revision holds until
    /// another claim comes.
    private(set) var revision = 0

    /// Notes that `subject` holds `appleID`, from `since` on (nil: from a time not known).
    mutating func add(appleID: String, subject: String, since: Timestamp? = nil) {
        guard !appleID.isEmpty else { return }
        revision += 1
        if since == nil { untimedSubjects.insert(subject) }
        if contested[appleID] != nil {
            timelines[appleID] = nil
            contested[appleID]!.add(subject: subject, since: since)  // changed in place, not copied
        } else if var known = holders[appleID] {
            guard known.subject != subject else {
                known.since = Self.earlier(known.since, since)
                holders[appleID] = known
                return
            }
            holders[appleID] = nil
            contested[appleID] = Contest(known, Claim(subject: subject, since: since))
        } else {
            holders[appleID] = Claim(subject: subject, since: since)
        }
    }

    /// Learns when `subject`, one of `untimedSubjects`, began: its export's `createdAt`, else
    /// its first event.
    mutating func noteBeginning(of subject: String, at time: Timestamp) {
        guard untimedSubjects.contains(subject) else { return }
        beginnings[subject] = time
        timelines = [:]
    }

    /// Orders every contested id's claims by time, once the claims and beginnings are known and
    /// before the notifications are joined (by parse workers, each with its own copy).
    mutating func orderClaims() {
        for (appleID, contest) in contested where timelines[appleID] == nil {
            timelines[appleID] = Timeline(contest, beginnings: beginnings)
        }
    }

    /// The one account that holds `appleID`, whatever the time: what the subject map checks its
    /// own rows against.
    func soleHolder(of appleID: String) -> String? { holders[appleID]?.subject }

    /// The claims of a contested `appleID` in time order.
    private func timeline(of appleID: String) -> Timeline? {
        if let ordered = timelines[appleID] { return ordered }
        return contested[appleID].map { Timeline($0, beginnings: beginnings) }
    }

    /// The account a notification about `appleID` sent at `time` concerns.
    func join(_ appleID: String, at time: Timestamp) -> Join {
        if let holder = holders[appleID] { return .joined(subject: holder.subject) }
        guard let timeline = timeline(of: appleID) else { return .unheld }
        guard !timeline.hasUntimedClaim else { return .undecided }
        // The claim taken last, when one alone was.
        let taken = timeline.takenCount(by: time)
        guard taken > 0, taken == 1 || timeline.times[taken - 2] < timeline.times[taken - 1] else { return .undecided }
        return .joined(subject: timeline.subjects[taken - 1])
    }

    /// Whether a notification about `appleID` sent at `time`, joined to the account that took
    /// the id last, passed over another account that had taken it before: the id passes on as
    /// Apple passes it to a person's new account after they deleted the old one, but where the
    /// old account was never deleted the reviewer must see which account the notification
    /// concerns (a note says so).
    func passesOver(_ appleID: String, at time: Timestamp) -> Bool {
        guard let timeline = timeline(of: appleID) else { return false }
        return timeline.takenCount(by: time) > 1
    }

    /// The earlier of two times, a known one over an unknown one.
    fileprivate static func earlier(_ a: Timestamp?, _ b: Timestamp?) -> Timestamp? {
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
