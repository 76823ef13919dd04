import Foundation
import RelayLintTestSupport
import Testing

/// Issue 19, item 2: an endless input (`/dev/zero`, `/dev/urandom`) given to any option ends the
/// run quickly with exit code 2 and a message at the file and line, instead of growing forever.
@Suite struct EndlessInputTests {
    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            ["--events", "/dev/zero"], ["--events", "/dev/urandom"], ["--accounts", "/dev/zero"], ["--manifest", "/dev/urandom"],
            ["--config", "/dev/zero"], ["--rules", "/dev/zero"], ["--baseline", "/dev/zero"],
            // Read through a mapping, a device was read to the 4 GiB cap (28 s) before a byte was parsed.
            ["--events-format", "google-cloud-logging", "--events", "/dev/zero"],
        ])
    func anEndlessInputStopsWithExitCode2(_ option: [String]) throws {
        let started = Date()
        let result = try CommandRunner.run(["check"] + option + (option.count == 2 ? ["--events", "Examples/events.jsonl"] : []))
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(option.last!):"), "\(result.stderr)")
        if option.first == "--events-format" { #expect(result.stderr.contains("a NUL byte"), "\(result.stderr)") }
        #expect(Date().timeIntervalSince(started) < 30)
    }
}
