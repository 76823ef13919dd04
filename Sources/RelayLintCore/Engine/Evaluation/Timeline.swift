/// One subject's events in contract order, each with the subject's state just before and after
/// it. Rules are evaluated over this; it is built once per subject and then dropped.
struct Timeline {
    struct Step {
        let event: Event
        let before: SubjectSnapshot
        let after: SubjectSnapshot
        /// Facets of identities this event added (a second email identity counts).
        let added: IdentityFacets
        /// Facets of the identities this event links or signs in with, held before or not.
        let linked: IdentityFacets
        let removed: IdentityFacets
    }

    let subject: String
    let steps: [Step]
    let account: AccountRecord?
    /// The state after the last event (export identities included).
    let finalState: SubjectSnapshot
    /// Whether the subject was anonymized at any point.
    let wasEverAnonymized: Bool
    /// The state the export alone shows for the account, for `when: {account: …}` rules.
    let accountState: SubjectSnapshot?
    /// The app the exported account belongs to.
    let accountApp: String?

    /// Orders the events by time, then input order, and replays identity changes, merging in
    /// the export's identities as contract §2.3 "Export and log together" says.
    /// - Parameter events: taken over and sorted in place; an array the caller still holds is copied first.
    init(subject: String, events: consuming [Event], account: AccountRecord?, accountApp: String? = nil, relayDomains: RelayDomains) {
        self.subject = subject
        self.account = account
        self.accountApp = accountApp
        let accountIdentities = account?.identities(relayDomains: relayDomains) ?? []
        self.accountState = account.map { _ in
            var ledger = IdentityLedger()
            for identity in accountIdentities { ledger.add(identity) }
            return ledger.snapshot
        }
        events.sort { ($0.time, $0.sequence) < ($1.time, $1.sequence) }
        let ordered = events
        var ledger = IdentityLedger()
        var exportIdentities: [Identity] = []
        // Export identities the log links exist from that link on, with what the export knows
        // of them (an anonymized relay address, say) merged in.
        var linkedExportIdentities: [IdentitySlot: Identity] = [:]
        if !accountIdentities.isEmpty {
            var linkedInLog: Set<IdentitySlot> = []
            for event in ordered where event.type == "identity.linked" {
                IdentityChange.forEachIdentity(linkedBy: event, relayDomains: relayDomains) { linkedInLog.insert($0.slot) }
            }
            for identity in accountIdentities {
                if linkedInLog.contains(identity.slot) {
                    linkedExportIdentities[identity.slot] = identity
                } else {
                    exportIdentities.append(identity)
                }
            }
        }
        let exportTime = account?.createdAt
        var exportApplied = exportIdentities.isEmpty
        func applyExport() {
            for identity in exportIdentities { ledger.add(identity) }
            exportApplied = true
        }
        if !exportApplied, exportTime == nil { applyExport() }
        var everAnonymized = ledger.snapshot.isAnonymized
        var steps: [Step] = []
        steps.reserveCapacity(ordered.count)
        for event in ordered {
            if !exportApplied, let exportTime, event.time >= exportTime { applyExport() }
            let before = ledger.snapshot
            var added: IdentityFacets = []
            var linked: IdentityFacets = []
            var removed: IdentityFacets = []
            IdentityChange.forEach(of: event, relayDomains: relayDomains) { change in
                switch change {
                case .add(var identity):
                    if event.type == "identity.linked", let known = linkedExportIdentities[identity.slot] {
                        identity.isAnonymized = identity.isAnonymized || known.isAnonymized
                        identity.isRelayEmail = identity.isRelayEmail || known.isRelayEmail
                    }
                    linked.formUnion(identity.facets)
                    added.formUnion(ledger.add(identity))
                case .remove(let identity): removed.formUnion(ledger.remove(identity))
                case .accountCreated: ledger.markDeleted(false)
                case .accountDeleted: ledger.markDeleted(true)
                }
            }
            let after = ledger.snapshot
            everAnonymized = everAnonymized || before.isAnonymized || after.isAnonymized
            steps.append(Step(event: event, before: before, after: after, added: added, linked: linked, removed: removed))
        }
        if !exportApplied { applyExport() }
        self.steps = steps
        self.finalState = ledger.snapshot
        self.wasEverAnonymized = everAnonymized || finalState.isAnonymized
    }
}
