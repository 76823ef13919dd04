/// What relaylint takes as a subject id: at most `longestBytes` bytes of UTF-8.
///
/// A subject id is copied into every event joined to its subject (each Apple notification for its
/// Apple user id) and into every finding and report line about it. Unbounded, a 900 KiB id and
/// 2,000 notifications of 190 bytes each (1.3 MB of input) took 3.7 GB and wrote a 1.8 GB report.
/// Firebase's uids are at most 128 characters and an address at most 254, so the cap refuses no
/// real id; past it the record is invalid input at its line, as any other malformed field.
enum SubjectID {
    /// The longest subject id, in bytes of UTF-8.
    static let longestBytes = 1024

    /// Why `subject` cannot be a subject id, `what` naming where it was read (`field 'subject'`,
    /// `'localId'`); nil when it can.
    static func problem(with subject: String, what: String) -> String? {
        let bytes = subject.utf8.count
        guard bytes > longestBytes else { return nil }
        return
            "\(what) is \(bytes) bytes long: a subject id takes at most \(longestBytes) bytes (Firebase's uids are at most 128 characters)"
    }
}
