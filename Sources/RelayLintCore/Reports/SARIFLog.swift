/// The part of SARIF 2.1.0 that relaylint writes, as `Codable` values.
///
/// Only what GitHub code scanning and other SARIF viewers read is modelled; optional properties
/// are left out of the JSON when nil, as the schema prefers to an explicit `null`. The reporter
/// (`SARIFReporter`) decides the content; this file only fixes the shape and the key names.
struct SARIFLog: Codable, Equatable {
    /// The OASIS schema the output is valid against (a copy is `Scripts/schemas/`).
    static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    var schema: String = SARIFLog.schemaURI
    var version: String = "2.1.0"
    var runs: [Run]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case version, runs
    }

    struct Run: Codable, Equatable {
        var tool: Tool
        var invocations: [Invocation]
        var artifacts: [Artifact]
        var results: [Result]
        var properties: RunProperties
    }

    struct Tool: Codable, Equatable {
        var driver: ToolComponent
    }

    struct ToolComponent: Codable, Equatable {
        var name: String
        var version: String
        var semanticVersion: String
        var informationUri: String
        var rules: [ReportingDescriptor]
    }

    /// One rule, as code scanning shows it next to each alert.
    struct ReportingDescriptor: Codable, Equatable {
        var id: String
        var name: String
        var shortDescription: MultiformatMessageString
        var fullDescription: MultiformatMessageString
        var help: MultiformatMessageString
        var helpUri: String?
        var defaultConfiguration: ReportingConfiguration
        var properties: RuleProperties
    }

    struct MultiformatMessageString: Codable, Equatable {
        var text: String
        var markdown: String?
    }

    struct ReportingConfiguration: Codable, Equatable {
        var level: String
    }

    /// The property bag keys code scanning reads on a rule.
    struct RuleProperties: Codable, Equatable {
        var tags: [String]
        var precision: String
        var problemSeverity: String

        enum CodingKeys: String, CodingKey {
            case tags, precision
            case problemSeverity = "problem.severity"
        }
    }

    /// A message in plain text. SARIF reads `[text](target)` in any message as an embedded
    /// link (§3.11.6), so the text is escaped: a subject id cannot turn into a link.
    struct Message: Codable, Equatable {
        var text: String

        init(text: String) { self.text = text }

        init(plain: String) { self.text = Message.escapeEmbeddedLinks(plain) }

        /// Square brackets become `\[` and `\]`, and a backslash is doubled where it stands
        /// before a bracket or another backslash, so that no escape of ours can be cancelled by
        /// one from the input.
        static func escapeEmbeddedLinks(_ text: String) -> String {
            let scalars = Array(text.unicodeScalars)
            var output = ""
            output.reserveCapacity(text.utf8.count)
            for (index, scalar) in scalars.enumerated() {
                switch scalar {
                case "[", "]":
                    output += "\\"
                case "\\" where index + 1 < scalars.count && ["[", "]", "\\"].contains(scalars[index + 1]):
                    output += "\\"
                default:
                    break
                }
                output.unicodeScalars.append(scalar)
            }
            return output
        }
    }

    struct Result: Codable, Equatable {
        var ruleId: String
        var ruleIndex: Int?
        var level: String
        var message: Message
        var locations: [Location]?
        var partialFingerprints: [String: String]
        var relatedLocations: [Location]?
        var properties: ResultProperties
    }

    struct Location: Codable, Equatable {
        var id: Int?
        var physicalLocation: PhysicalLocation
        var message: Message?
    }

    struct PhysicalLocation: Codable, Equatable {
        var artifactLocation: ArtifactLocation
        var region: Region?
    }

    struct ArtifactLocation: Codable, Equatable {
        var uri: String
        var uriBaseId: String?
        var index: Int?

        /// The location of an input file given as `path`: relative paths resolve against
        /// `%SRCROOT%`, the checkout code scanning maps alerts into.
        init(path: String, index: Int?) {
            let reference = ReportURI.fileReference(path)
            uri = reference.uri
            uriBaseId = reference.isRelative ? "%SRCROOT%" : nil
            self.index = index
        }
    }

    struct Region: Codable, Equatable {
        var startLine: Int
    }

    /// What the finding is about, for viewers and scripts that read SARIF instead of JSON.
    struct ResultProperties: Codable, Equatable {
        var subject: String
        var app: String
        var event: String?
        var time: String?
        /// Evidence events left out of `relatedLocations` (over the per-result limit).
        var omittedEvidence: Int?
    }

    struct Artifact: Codable, Equatable {
        var location: ArtifactLocation
        var roles: [String]
        var hashes: [String: String]?
        var properties: ArtifactProperties
    }

    struct ArtifactProperties: Codable, Equatable {
        var kind: String
        var records: Int
        /// For a log read through a mapping: the mapping, the events made, the records skipped.
        var format: String? = nil
        var eventsMade: Int? = nil
        var skippedRecords: [InputFileSummary.SkippedRecords]? = nil
        var verifiedSignatures: Int? = nil
    }

    struct Invocation: Codable, Equatable {
        var executionSuccessful: Bool
        var toolExecutionNotifications: [Notification]?
    }

    struct Notification: Codable, Equatable {
        var level: String
        var message: Message
        var locations: [Location]?
    }

    /// Counts of the whole run, and whether the results are all of them.
    struct RunProperties: Codable, Equatable {
        var findings: Int
        var results: Int
        var suppressed: Int
        var truncated: Bool
        var truncation: String?
        var subjects: Int
        var events: Int
        var accounts: Int
        var duplicates: Int
        var skippedRecords: Int
        var pending: Int
        var rulePackSHA256: String
    }
}
