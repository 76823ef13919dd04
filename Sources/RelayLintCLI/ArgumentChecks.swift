import ArgumentParser
import Foundation
import RelayLintCore

/// Whether the commands' `validate()` checks are held back: `RelayLint.usageError(before:)`
/// parses the arguments a second time without them, to tell a mistyped option before a
/// command's own complaint about what is missing.
enum ArgumentChecks {
    /// Set only on the main thread, before anything else runs, while the arguments are parsed
    /// a second time.
    nonisolated(unsafe) static var areHeldBack = false
}

extension ArgumentChecks {
    /// Refuses an option's value that is not a day, YYYY-MM-DD (`--as-of`, `--date`). The value
    /// is quoted masked and with control characters made visible, as errors quote input.
    static func requireDay(_ value: String?, option: String) throws {
        guard let value, value.count != 10 || Timestamp(rfc3339: value + "T00:00:00Z") == nil else { return }
        throw ValidationError(
            "\(option) must be a date YYYY-MM-DD, e.g. 2026-07-01; found '\(StandardError.escaped(PIIMasker().mask(value)))'")
    }
}

extension ArgumentChecks {
    /// Refuses a named pipe (or socket) given twice, to one option or to two: read once, it has
    /// nothing left for the second reader, whose open waited for a writer that had gone (the
    /// run hung, silent). Standard input is refused alike (`-` given twice). Pipes are compared
    /// by device and inode, so another spelling or a link of the same pipe counts.
    /// - Parameter inputs: each file the command reads with the option that names it.
    static func refuseRepeatedPipes(_ inputs: [(option: String, path: String)]) throws {
        var seen: [FileIdentity: String] = [:]
        for (option, path) in inputs {
            var info = stat()
            guard stat(path, &info) == 0, [S_IFIFO, S_IFSOCK].contains(info.st_mode & S_IFMT) else { continue }
            let identity = FileIdentity(info)
            let named = "\(option) '\(StandardError.escaped(path))'"
            if let earlier = seen[identity] {
                throw ValidationError(
                    "\(named) and \(earlier) name one pipe, which can be read once: give it at most once (write what it carries to a file to read it twice)"
                )
            }
            seen[identity] = named
        }
    }
}
