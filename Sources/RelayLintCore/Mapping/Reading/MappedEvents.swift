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
        var subject = mapped.subject
        if let appleID = mapped.appleID {
            guard let joined = appleAccounts.subject(of: appleID) else {
                return .skipped(appleAccounts.ambiguous.contains(appleID) ? AppleAccountIndex.twoAccounts : AppleAccountIndex.noAccount)
            }
            subject = .string(joined)
        }
        let made = Event.make(
            id: mapped.id, time: mapped.time, subject: subject, type: mapped.type, app: mapped.app, sortedFields: mapped.fields,
            location: location, sequence: sequence)
        switch made {
        case .success(let event): return .event(event)
        case .failure(let problem): return .invalid(problem.reason)
        }
    }
}
