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
        // A notification is made with a subject to come: the account it is joined to may depend
        // on its time, which is read and checked with the rest of the event first (so a
        // notification no account holds, with a time that does not read, is invalid input, not
        // skipped: contract §2.2 "Bad input").
        let made = Event.make(
            id: mapped.id, time: mapped.time, subject: mapped.appleID == nil ? mapped.subject : .string(""), type: mapped.type,
            app: mapped.app, sortedFields: mapped.fields, location: location, sequence: sequence)
        switch made {
        case .success(var event):
            guard let appleID = mapped.appleID else { return .event(event) }
            switch appleAccounts.join(appleID, at: event.time) {
            case .joined(let subject):
                event.subject = subject
                return .event(event)
            case .unheld: return .skipped(AppleAccountIndex.noAccount)
            case .undecided: return .skipped(AppleAccountIndex.twoAccounts)
            }
        case .failure(let problem): return .invalid(problem.reason)
        }
    }
}
