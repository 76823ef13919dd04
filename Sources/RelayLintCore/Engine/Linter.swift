/// The library's entry point: reads the inputs, evaluates every rule, returns the report.
///
/// A run is three steps, each in a folder of its own under `Engine/`, and each hands the next a
/// single value, so that a step can be read (and a partitioned run split) without the others:
/// `Ingest/` reads the inputs into a `Dataset` (`read`), `Evaluation/` evaluates the subject rules
/// over every subject's timeline into a `PartialEvaluation` (`subjectPass`), and `Reduce/` makes
/// the report of it (`assemble`), once a partitioned run's evaluations are added up. `Storage/`
/// holds the packed, spillable structures underneath. `docs/architecture.md` draws the map.
public enum Linter {
    /// Runs one check. Throws every input problem found (with file and line) when the inputs
    /// cannot be trusted; never prints.
    public static func run(_ request: LintRequest) throws(DiagnosticsError) -> LintReport {
        let subjectRules = request.rules.rules.filter { $0.scope == .subject }
        let appRules = request.rules.rules.filter { $0.scope == .app }
        do {
            return try evaluate(try read(request), subjectRules: subjectRules, appRules: appRules, request: request)
        } catch {
            throw DiagnosticsError(
                masked(error.diagnostics, by: PIIMasker(isEnabled: !request.showPII)), onlySkippableRecords: error.onlySkippableRecords)
        }
    }

    /// The map step of a partitioned run (`--partition K/N`): reads the partition's inputs and
    /// evaluates its subjects, leaving the app rules and the report to `PartitionMerger`.
    public static func runPartition(_ request: LintRequest) throws(DiagnosticsError) -> PartialEvaluation {
        let subjectRules = request.rules.rules.filter { $0.scope == .subject }
        let appRules = request.rules.rules.filter { $0.scope == .app }
        do {
            return try subjectPass(try read(request), subjectRules: subjectRules, appRules: appRules, request: request)
        } catch {
            throw DiagnosticsError(
                masked(error.diagnostics, by: PIIMasker(isEnabled: !request.showPII)), onlySkippableRecords: error.onlySkippableRecords)
        }
    }

    /// - Parameter dataset: taken over, so that no caller's copy keeps what the pass lets go of
    ///   (the subject table's lookup index) alive through it.
    static func evaluate(
        _ dataset: consuming Dataset, subjectRules: [Rule], appRules: [Rule], request: LintRequest
    ) throws(DiagnosticsError) -> LintReport {
        let manifest = dataset.manifest
        let evaluation = try subjectPass(dataset, subjectRules: subjectRules, appRules: appRules, request: request)
        return assemble(evaluation, manifest: manifest, subjectRules: subjectRules, appRules: appRules, request: request)
    }
}
