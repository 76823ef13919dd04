/// How far a run has read its logs: what a progress display shows.
public struct LintProgress: Sendable, Equatable {
    /// The log being read.
    public var file: String
    /// Bytes of all logs read so far, and their total size.
    public var bytesRead: Int
    public var totalBytes: Int
    /// Records read so far (events and duplicates).
    public var events: Int
}
