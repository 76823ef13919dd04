import Foundation

/// Why an input could not be used at all (as opposed to one bad record in it).
public enum InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// Records that `--skip-invalid` would have passed over, met without it: each told at its
    /// line, and the run can be told that the option reads on.
    case skippableRecords([Diagnostic])
    /// The file cannot be read on from a place (a NUL byte, a break in a JSON array, a line past
    /// the cap, a file that is no input of this kind): told there; `--skip-invalid` does not pass it.
    case refused([Diagnostic])
    /// The file's format is not the expected one.
    case unrecognizedFormat(path: String, expected: String)
    /// The file was rewritten, replaced or cut short while it was read (`how` says which, or is
    /// empty): what was hashed and what was read may differ, and what a reader met in it after
    /// the change (zeros where a cut file's pages were) says nothing about the file.
    case changedWhileRead(path: String, how: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): error: cannot read file: \(reason)"
        case .skippableRecords(let diagnostics), .refused(let diagnostics): diagnostics.map(\.description).joined(separator: "\n")
        case .unrecognizedFormat(let path, let expected): "\(path): error: unrecognized format, expected \(expected)"
        case .changedWhileRead(let path, let how): "\(path): error: cannot read file: \(Self.changed(how))"
        }
    }

    /// Why a file cannot be opened, as `unreadable` says it: no such file, is a directory,
    /// permission denied. For the command line's own reads, which name the file's role.
    public static func reason(opening path: String) -> String { FileBytes.openFailureReason(path) }

    /// What a failed Foundation file call says, in the system's words ("Not a directory"), not
    /// as an `NSError`'s description of domains, codes and URLs.
    static func systemReason(_ error: any Error) -> String {
        let error = error as NSError
        // On Linux the underlying error may be held as a Swift error rather than an `NSError`.
        let underlying = (error.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        for candidate in [underlying, error].compactMap({ $0 }) where candidate.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(candidate.code)))
        }
        return error.localizedDescription
    }

    private static func changed(_ how: String) -> String {
        "the file changed while it was read" + (how.isEmpty ? "" : ": \(how)")
            + " (to check a file still being written, check a copy of it)"
    }

    /// The diagnostics this error stands for.
    public var diagnostics: [Diagnostic] {
        switch self {
        case .unreadable(let path, let reason):
            [Diagnostic(.error, "cannot read file: \(reason)", at: SourceLocation(file: path))]
        case .skippableRecords(let diagnostics), .refused(let diagnostics): diagnostics
        case .unrecognizedFormat(let path, let expected):
            [Diagnostic(.error, "unrecognized format, expected \(expected)", at: SourceLocation(file: path))]
        case .changedWhileRead(let path, let how):
            [Diagnostic(.error, "cannot read file: \(Self.changed(how))", at: SourceLocation(file: path))]
        }
    }
}
