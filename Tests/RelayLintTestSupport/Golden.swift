import Foundation

/// Golden-file comparison: `RELAYLINT_RECORD=1 swift test` rewrites the files; otherwise a
/// mismatch is returned as a readable line diff.
public enum Golden {
    public static var isRecording: Bool { ProcessInfo.processInfo.environment["RELAYLINT_RECORD"] == "1" }

    /// Compares `actual` with the file at `relativePath` (from the repository root); returns
    /// nil when they match (or after recording), else a diff.
    public static func compare(_ actual: String, toFile relativePath: String) -> String? {
        let url = Fixtures.root.appendingPathComponent(relativePath)
        if isRecording {
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(actual.utf8).write(to: url)
            return nil
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return "no golden file at \(relativePath); run RELAYLINT_RECORD=1 swift test to create it"
        }
        let expected = String(decoding: data, as: UTF8.self)
        return expected == actual
            ? nil : "\(relativePath) differs (RELAYLINT_RECORD=1 swift test rewrites it):\n" + lineDiff(expected: expected, actual: actual)
    }

    /// The lines that differ, `-` expected and `+` actual, with their line numbers.
    public static func lineDiff(expected: String, actual: String, limit: Int = 40) -> String {
        let old = expected.components(separatedBy: "\n")
        let new = actual.components(separatedBy: "\n")
        var output: [String] = []
        for index in 0..<max(old.count, new.count) where output.count < limit {
            let before = index < old.count ? old[index] : nil
            let after = index < new.count ? new[index] : nil
            guard before != after else { continue }
            if let before { output.append("\(index + 1) - \(before)") }
            if let after { output.append("\(index + 1) + \(after)") }
        }
        return output.joined(separator: "\n")
    }
}
