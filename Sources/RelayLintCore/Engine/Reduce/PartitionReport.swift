import Crypto
import Foundation

/// The partial report of `relaylint check --partition K/N`: one partition's `PartialEvaluation`
/// with what `relaylint merge` must check before adding partitions up (the partition, the tool,
/// the settings, the end of the data the windows were decided against).
///
/// It holds findings and evidence unmasked (suppressions and baselines match whole ids, and the
/// merge masks them as a single run does): keep it where the inputs are kept.
public struct PartitionReport: Sendable, Codable, Equatable {
    /// What tells a partial from a report (`format`), and its version.
    public static let formatName = "relaylint-partition"
    /// The version of the partial this relaylint writes, and the only one it merges.
    public static let formatVersion = 1

    public var format = PartitionReport.formatName
    public var version = PartitionReport.formatVersion
    public var tool: LintReport.Tool
    public var partition: Shard
    /// `--data-end`, when given.
    public var dataEnd: Timestamp?
    public var settings: PartitionSettings
    public var evaluation: PartialEvaluation

    public init(partition: Shard, request: LintRequest, evaluation: PartialEvaluation) {
        self.tool = LintReport.Tool(version: request.toolVersion)
        self.partition = partition
        self.dataEnd = request.dataEnd
        self.settings = PartitionSettings(request)
        self.evaluation = evaluation
    }

    /// The partial as JSON, keys sorted: the same inputs give the same bytes.
    ///
    /// The findings, nearly all of it, are written by `PartialFindings`; the rest goes through
    /// `Codable` into a tree first.
    public func json() -> Data {
        var shell = self
        shell.evaluation.findings = []
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every part of it encodes (strings, numbers, arrays) and parses back: this cannot fail.
        guard let data = try? encoder.encode(shell), case .object(let document)? = try? PartitionReport.tree(of: data),
            case .object(let evaluation)? = document["evaluation"]
        else { return Data() }
        var writer = CompactJSONWriter(capacity: 4096 + self.evaluation.findings.count * 1024)
        writer.object { writer in
            for key in document.keys.sorted() {
                writer.key(key)
                guard key == "evaluation" else {
                    writer.value(document[key]!)
                    continue
                }
                writer.object { writer in
                    for key in evaluation.keys.sorted() {
                        writer.key(key)
                        if key == "findings" {
                            writer.array(self.evaluation.findings) { PartialFindings.write($1, to: &$0) }
                        } else {
                            writer.value(evaluation[key]!)
                        }
                    }
                }
            }
        }
        return Data(writer.bytes)
    }

    /// Reads a partial that `json()` wrote: the findings with `PartialFindings`, straight from
    /// the bytes; the rest as a tree, decoded through `Codable`.
    static func read(_ data: Data) throws -> PartitionReport {
        let (document, findings) = try data.withUnsafeBytes { raw in try split(raw.bindMemory(to: UInt8.self)) }
        var writer = CompactJSONWriter()
        writer.value(.object(document))
        var report = try JSONDecoder().decode(PartitionReport.self, from: Data(writer.bytes))
        report.evaluation.findings = findings
        return report
    }

    /// The partial's findings, and the rest of it as a tree with no findings.
    private static func split(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) throws(JSONParser.SyntaxError) -> (document: [String: JSONValue], findings: [Finding]) {
        var document: [String: JSONValue] = [:]
        var findings: [Finding]?
        var parser = JSONParser(bytes: bytes)
        try parser.parseObject(depth: 0) { key, parser throws(JSONParser.SyntaxError) in
            if key == "evaluation" {
                var evaluation: [String: JSONValue] = [:]
                try parser.parseObject(depth: 1) { key, parser throws(JSONParser.SyntaxError) in
                    if key == "findings" {
                        findings = try readFindings(&parser)
                        evaluation[key] = .array([])
                    } else {
                        evaluation[key] = try parser.parseValue(depth: 2)
                    }
                }
                document[key] = .object(evaluation)
            } else {
                document[key] = try parser.parseValue(depth: 1)
            }
        }
        parser.skipWhitespace()
        if !parser.isAtEnd { throw JSONParser.SyntaxError(offset: parser.offset, reason: "unexpected text after the JSON value") }
        guard let findings else { throw JSONParser.SyntaxError(offset: 0, reason: "no evaluation.findings array") }
        return (document, findings)
    }

    private static func readFindings(_ parser: inout JSONParser) throws(JSONParser.SyntaxError) -> [Finding] {
        var findings: [Finding] = []
        try parser.parseArray(depth: 2) { parser throws(JSONParser.SyntaxError) in
            findings.append(try PartialFindings.finding(from: &parser, depth: 3))
        }
        return findings
    }

    private static func tree(of data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { bytes in try JSONParser.parseDocument(bytes.bindMemory(to: UInt8.self)) }
    }
}

/// The options of a run that decide its findings; partitions and their merge must agree on them.
public struct PartitionSettings: Sendable, Codable, Equatable {
    public var rulePackSHA256: String
    /// The rules run, each as `id severity`, in pack order.
    public var rules: [String]
    public var relayDomains: [String]
    public var skipInvalid: Bool
    public var showPII: Bool
    /// SHA-256 of the suppressions applied (none with `--no-suppressions`).
    public var suppressions: String
    public var asOfDay: String?
    /// SHA-256 of the baseline's fingerprints, sorted.
    public var baseline: String

    public init(_ request: LintRequest) {
        rulePackSHA256 = request.rules.packSHA256
        rules = request.rules.rules.map { "\($0.id) \($0.severity.rawValue)" }
        relayDomains = request.relayDomains.domains
        skipInvalid = request.skipInvalid
        showPII = request.showPII
        // Where the configuration lies may differ between machines; what it says may not.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        suppressions = PartitionSettings.digest(
            request.suppressions.map { suppression in
                var suppression = suppression
                suppression.location = SourceLocation(file: "")
                return String(decoding: (try? encoder.encode(suppression)) ?? Data(), as: UTF8.self)
            })
        asOfDay = request.asOfDay
        baseline = PartitionSettings.digest(request.baselineFingerprints.sorted())
    }

    /// The first setting in which the two differ, named as the option that sets it; nil if none.
    public func difference(from other: PartitionSettings) -> String? {
        if rulePackSHA256 != other.rulePackSHA256 { return "the rule pack (--rules)" }
        if rules != other.rules { return "the rules run or their severities (--config, --enable, --disable)" }
        if relayDomains != other.relayDomains { return "the relay domains (--relay-domain)" }
        if skipInvalid != other.skipInvalid { return "--skip-invalid" }
        if showPII != other.showPII { return "--show-pii" }
        if suppressions != other.suppressions { return "the suppressions (--config, --no-suppressions)" }
        if asOfDay != other.asOfDay { return "the review day (--as-of)" }
        if baseline != other.baseline { return "the baseline (--baseline)" }
        return nil
    }

    private static func digest(_ lines: [String]) -> String {
        FileBytes.hex(SHA256.hash(data: Data(lines.joined(separator: "\n").utf8)))
    }
}
