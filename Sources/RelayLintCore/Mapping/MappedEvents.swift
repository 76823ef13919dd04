/// Turns what a mapping made of a record into validated events, joining Apple user ids to
/// accounts: the one place where mapped records and native events meet the same rules
/// (`Event.make`: required fields, kinds, times).
enum MappedEvents {
    enum Result {
        case event(Event)
        case skipped(String)
        case invalid(String)
    }

    static func event(
        from mapped: RecordMapper.MappedEvent, appleAccounts: AppleAccountIndex, location: SourceLocation, sequence: UInt64
    ) -> Result {
        var members = mapped.members
        if let appleID = mapped.appleID {
            guard let subject = appleAccounts.subject(of: appleID) else {
                return .skipped(appleAccounts.ambiguous.contains(appleID) ? AppleAccountIndex.twoAccounts : AppleAccountIndex.noAccount)
            }
            members["subject"] = .string(subject)
        }
        switch Event.make(from: .object(members), location: location, sequence: sequence) {
        case .success(let event): return .event(event)
        case .failure(let problem): return .invalid(problem.reason)
        }
    }
}
