/// The reduce step's end: from what the subject pass found (of one run, or of all partitions
/// added up), the report. App rules, suppressions, the baseline and masking are decided here,
/// once, so that a merged run and a single run decide them alike.
extension Linter {
    static func assemble(
        _ evaluation: PartialEvaluation, manifest: AppManifest?, subjectRules: [Rule], appRules: [Rule], request: LintRequest
    ) -> LintReport {
        let (appMatchers, appMatcherNeeds) = EvaluationContext.appMatchers(appRules: appRules, subjectRules: subjectRules)
        let context = EvaluationContext(
            relayDomains: request.relayDomains, masker: PIIMasker(isEnabled: !request.showPII), horizon: evaluation.horizon,
            defaultApp: Dataset.defaultApp(manifest: manifest), hasManifest: manifest != nil, appMatchers: appMatchers,
            appMatcherNeeds: appMatcherNeeds)
        var findings = evaluation.findings
        var tallies = evaluation.tallies.map(\.tally)
        let appMatches = evaluation.appMatches.map { $0.mapValues(\.evidence) }
        let shard = request.shard
        let apps = appFacts(
            seen: Set(evaluation.appsSeen), creating: Set(evaluation.appsCreatingAccounts), manifest: manifest, inputs: evaluation.inputs,
            firstCreation: EvaluationContext.firstAccountCreations(in: appMatches, appRules: appRules))
        var appResult = AppRuleEvaluator(rules: appRules, context: context).evaluate(apps: apps, matches: appMatches)
        if let shard, shard.index != 1 {
            // Every shard sees every app; shard 1 alone reports them, so shard reports add up.
            appResult.findings = []
            appResult.tallies = appResult.tallies.map { _ in SubjectRuleEvaluator.Tally() }
        }
        var needResult = DeclarationNeedEvaluator(context: context).evaluate(
            subjectRules: subjectRules, apps: apps, matches: appMatches, counts: evaluation.appMatchCounts)
        if let shard, shard.index != 1 { needResult = ([], []) }
        for rule in needResult.rules {
            // One check per app: the missing declaration.
            tallies[rule].triggered += 1
            tallies[rule].violated += 1
        }
        findings.reserveCapacity(findings.count + appResult.findings.count + needResult.findings.count)
        findings.append(contentsOf: appResult.findings)
        findings.append(contentsOf: needResult.findings)
        sortInReportOrder(&findings)
        // Suppressions are matched before the baseline hides findings: one that still accepts a
        // finding the baseline hides is in use, not stale.
        var suppressionOutcomes = applySuppressions(request.suppressions, to: &findings, asOf: request.asOfDay)
        let baselined = findings.count
        findings.removeAll { request.baselineFingerprints.contains($0.fingerprint) }
        // An app finding cites another subject's event: its id is masked keeping that subject;
        // a subject's finding keeps its own, whatever event ids the app findings cite.
        var subjectsOfAppEvents: [String: String] = [:]
        for matches in evaluation.appMatches {
            for match in matches.values where subjectsOfAppEvents[match.evidence.event] == nil {
                subjectsOfAppEvents[match.evidence.event] = match.subject
            }
        }
        let appFindings = Set((appResult.findings + needResult.findings).map(\.fingerprint))
        maskPersonalData(in: &findings, masker: context.masker, citedSubjects: (subjectsOfAppEvents, appFindings))
        if context.masker.isEnabled {
            for index in suppressionOutcomes.indices {
                suppressionOutcomes[index].suppression = masked(suppressionOutcomes[index].suppression, by: context.masker)
            }
        }

        var outcomes: [String: LintReport.RuleOutcome] = [:]
        for (rule, tally) in Array(zip(subjectRules, tallies)) + Array(zip(appRules, appResult.tallies)) {
            outcomes[rule.id] = LintReport.RuleOutcome(
                rule: rule, checked: tally.triggered, violated: tally.violated, pending: tally.pending)
        }
        var bySeverity: [Severity: Int] = [:]
        for finding in findings where !finding.isSuppressed { bySeverity[finding.severity, default: 0] += 1 }
        let suppressedCount = findings.count { $0.isSuppressed }
        return LintReport(
            tool: LintReport.Tool(version: request.toolVersion),
            inputs: masked(evaluation.inputs, by: context.masker),
            ruleFiles: request.rules.files,
            rulePackSHA256: request.rules.packSHA256,
            rules: request.rules.rules.compactMap { outcomes[$0.id] },
            apps: apps.map {
                LintReport.AppOutcome(
                    bundleId: context.masker.mask($0.bundleId), createsAccounts: $0.createsAccounts,
                    inManifest: $0.manifestEntry != nil, accounts: evaluation.accountsPerApp[$0.bundleId] ?? 0)
            },
            summary: LintReport.Summary(
                subjects: evaluation.subjects, events: evaluation.events, accounts: evaluation.accountsPerApp.values.reduce(0, +),
                duplicates: evaluation.duplicates, skippedRecords: evaluation.skippedRecords,
                anonymizedSubjects: evaluation.anonymizedSubjects, findings: findings.count - suppressedCount,
                suppressed: suppressedCount, baselined: baselined - findings.count,
                pending: tallies.reduce(0) { $0 + $1.pending }, bySeverity: bySeverity),
            findings: findings,
            suppressions: suppressionOutcomes,
            skipped: masked(evaluation.skipped, by: context.masker),
            notes: masked(evaluation.notes, by: context.masker),
            eventsPerDay: evaluation.eventsPerDay.map { (day: Timestamp.utcDay(number: $0.day), count: $0.count) },
            earliest: evaluation.earliest, latest: evaluation.latest, showsPII: request.showPII, shard: request.shard)
    }

    /// Every app the data or the manifest names, with what the contract says about it.
    /// - Parameters:
    ///   - seen: the apps the data names, the exported accounts' included.
    ///   - creating: the apps whose data holds an `account.created` or an exported account.
    ///   - firstCreation: each app's first `account.created`: where an app finding points, with
    ///     no manifest entry to point at, is the evidence that the app creates accounts (its
    ///     first `account.created`, else the export, the one other evidence); it pointed at line
    ///     1 of the first log, whatever that line was.
    static func appFacts(
        seen: Set<String>, creating: Set<String>, manifest: AppManifest?, inputs: [InputFileSummary],
        firstCreation: [String: Evidence] = [:]
    ) -> [AppRuleEvaluator.AppFacts] {
        var names = seen
        var creating = creating
        for entry in manifest?.entries ?? [] {
            names.insert(entry.bundleId)
            if entry.declares("creates_accounts") { creating.insert(entry.bundleId) }
        }
        let firstLog = inputs.first { $0.kind == .events }.map { SourceLocation(file: $0.path, line: 1) }
        let firstExport = inputs.first { $0.kind == .accounts }.map { SourceLocation(file: $0.path) }
        return names.sorted().map { name in
            let entry = manifest?.entry(for: name)
            let evidence = firstCreation[name]?.location ?? (creating.contains(name) ? firstExport : nil)
            return AppRuleEvaluator.AppFacts(
                bundleId: name, createsAccounts: creating.contains(name), manifestEntry: entry,
                location: entry?.location ?? evidence ?? firstLog)
        }
    }

    /// Sorts the findings in report order through a permutation of their indices, then moves each
    /// into place: the standard sort's merge buffer holds half the elements, 30 MB of findings at
    /// 10M events, at the run's peak. The indices are sorted as the findings were (the same
    /// algorithm, stable in practice), so equal findings keep their order as before.
    static func sortInReportOrder(_ findings: inout [Finding]) {
        var order = Array(0..<findings.count)
        findings.withUnsafeBufferPointer { findings in order.sort { Finding.reportOrder(findings[$0], findings[$1]) } }
        // The element for place i is at order[i]: each cycle of the permutation is followed once,
        // carrying the cycle's first element along by swaps.
        var placed = [Bool](repeating: false, count: findings.count)
        findings.withUnsafeMutableBufferPointer { findings in
            for start in findings.indices where !placed[start] {
                var place = start
                while true {
                    placed[place] = true
                    let source = order[place]
                    if source == start { break }
                    findings.swapAt(place, source)
                    place = source
                }
            }
        }
    }

    /// Marks the findings that a live suppression accepts; expired suppressions apply to nothing.
    static func applySuppressions(_ suppressions: [Suppression], to findings: inout [Finding], asOf day: String?) -> [SuppressionOutcome] {
        var outcomes = suppressions.map { suppression in
            SuppressionOutcome(suppression: suppression, status: day.map(suppression.isExpired) ?? false ? .expired : .stale, matched: 0)
        }
        let index = SuppressionIndex(suppressions)
        for place in findings.indices {
            for number in index.matches(findings[place]) {
                let suppression = suppressions[number]
                outcomes[number].matched += 1
                guard outcomes[number].status != .expired else { continue }
                outcomes[number].status = .active
                if findings[place].suppression == nil { findings[place].suppression = suppression }
            }
        }
        return outcomes
    }
}
