import Foundation
import RelayLintCore

/// One self-overwriting status line on standard error while logs are read: bytes and events
/// read, rate, and an estimate of the time left. Only for people at a terminal: never in CI,
/// with --quiet, or when standard error is a file or a pipe.
final class ProgressDisplay: @unchecked Sendable {
    private let lock = NSLock()
    private let start = Date()
    private var lastDrawn: Date?
    private var drewSomething = false

    /// A display, or nil when progress should stay silent.
    static func forStandardError(quiet: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> ProgressDisplay? {
        guard !quiet, isatty(STDERR_FILENO) == 1 else { return nil }
        if let ci = environment["CI"], !ci.isEmpty, ci != "false", ci != "0" { return nil }
        return ProgressDisplay()
    }

    func update(_ progress: LintProgress) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        // Ten updates a second are plenty, and the first second stays quiet for short runs.
        guard now.timeIntervalSince(start) >= 1, now.timeIntervalSince(lastDrawn ?? .distantPast) >= 0.1 else { return }
        lastDrawn = now
        drewSomething = true
        StandardError.writeRaw("\r\u{1B}[K" + ProgressDisplay.line(progress, elapsed: now.timeIntervalSince(start)))
    }

    /// Clears the status line so that messages and reports start on a clean line.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drewSomething { StandardError.writeRaw("\r\u{1B}[K") }
        drewSomething = false
    }

    /// `reading events.jsonl: 512 MiB of 1.8 GiB (28%), 2,900,000 events, 410,000 events/s, about 9 s left`
    static func line(_ progress: LintProgress, elapsed: TimeInterval) -> String {
        var text = "reading \(progress.file): \(bytes(progress.bytesRead)) of \(bytes(progress.totalBytes))"
        if progress.totalBytes > 0 { text += " (\(progress.bytesRead * 100 / progress.totalBytes)%)" }
        text += ", \(progress.events.formatted()) \(Plural.word(progress.events, "event"))"
        guard elapsed > 0 else { return text }
        text += ", \(Int(Double(progress.events) / elapsed).formatted()) events/s"
        if progress.bytesRead > 0, progress.totalBytes > progress.bytesRead {
            let left = elapsed * Double(progress.totalBytes - progress.bytesRead) / Double(progress.bytesRead)
            text += ", about \(Int(left.rounded(.up))) s left"
        }
        return text
    }

    private static func bytes(_ count: Int) -> String {
        if count >= 1 << 30 { return String(format: "%.1f GiB", Double(count) / Double(1 << 30)) }
        return "\(count >> 20) MiB"
    }
}
