import Foundation

/// An earlier JSON report used as a baseline (`--baseline`): its findings are known, so only new
/// ones are reported. This lets a team adopt relaylint on a long history and fail only on
/// regressions.
public enum Baseline {
    /// The fingerprints of the findings in a JSON report.
    public static func fingerprints(ofReport path: String) throws(DiagnosticsError) -> Set<String> {
        let data: Data
        do {
            data = try FileBytes.read(path: path, limit: InputLimits.reportBytes, kind: "a JSON report").data
        } catch {
            throw DiagnosticsError(error.diagnostics)
        }
        return Set(try JSONReportDocument.read(data, path: path, hint: "; produce one with --format json").findings.map(\.fingerprint))
    }
}
