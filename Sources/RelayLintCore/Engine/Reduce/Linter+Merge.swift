/// The reduce step of a partitioned run, on the library's side: the report from the partitions'
/// evaluations added up (`PartitionMerger`).
extension Linter {
    /// The report of a partitioned run, from its partitions' evaluations added up
    /// (`PartitionMerger`): the rules, manifest and options must be those of the partition runs.
    public static func report(merging evaluation: PartialEvaluation, request: LintRequest) throws(DiagnosticsError) -> LintReport {
        var manifest: AppManifest?
        if let path = request.manifestPath {
            let loaded: AppManifest
            let sha256: String
            do {
                (loaded, sha256) = try AppManifestLoader.load(path: path, ruleKeys: Set(request.rules.rules.flatMap(manifestKeys(of:))))
            } catch {
                throw DiagnosticsError(error.diagnostics)
            }
            guard evaluation.inputs.first(where: { $0.kind == .manifest })?.sha256 == sha256 else {
                throw DiagnosticsError([
                    Diagnostic(
                        .error, "is not the manifest the partitions were checked with (its SHA-256 differs)", at: SourceLocation(file: path)
                    )
                ])
            }
            manifest = loaded
        } else if let recorded = evaluation.inputs.first(where: { $0.kind == .manifest }) {
            throw DiagnosticsError([
                Diagnostic(
                    .error, "the partitions were checked with a manifest: give it with --manifest", at: SourceLocation(file: recorded.path))
            ])
        }
        let subjectRules = request.rules.rules.filter { $0.scope == .subject }
        let appRules = request.rules.rules.filter { $0.scope == .app }
        return assemble(evaluation, manifest: manifest, subjectRules: subjectRules, appRules: appRules, request: request)
    }
}
