/// The report's text, member by member in key order, for `PrettyJSONWriter`. The `Codable`
/// conformance stays for reading reports back (`merge`, `--baseline`, `explain`) and as the
/// reference the writer is tested against.
extension JSONReportDocument {
    func write(to writer: inout PrettyJSONWriter) {
        write(to: &writer) { json in json.array(findings) { $1.write(to: &$0) } }
    }

    /// The text with the findings array written by `writeFindings` in place of the document's
    /// own, which a streaming writer leaves empty and converts as it goes.
    func write(to writer: inout PrettyJSONWriter, findings writeFindings: (inout PrettyJSONWriter) -> Void) {
        writer.object { json in
            json.key("apps")
            json.array(apps) { json, app in
                json.object { json in
                    json.member("accounts", app.accounts)
                    json.member("bundleId", app.bundleId)
                    json.member("createsAccounts", app.createsAccounts)
                    json.member("inManifest", app.inManifest)
                }
            }
            json.key("findings")
            writeFindings(&json)
            json.key("inputs")
            json.array(inputs) { json, input in
                json.object { json in
                    json.member("duplicates", input.duplicates)
                    json.memberIfPresent("eventsMade", input.eventsMade)
                    json.memberIfPresent("firstTime", input.firstTime)
                    json.memberIfPresent("format", input.format)
                    json.member("invalid", input.invalid)
                    json.member("kind", input.kind)
                    json.memberIfPresent("lastTime", input.lastTime)
                    json.member("path", input.path)
                    json.member("records", input.records)
                    json.member("sha256", input.sha256)
                    json.memberIfPresent("signedTokens", input.signedTokens)
                    if let skipped = input.skippedRecords {
                        json.key("skippedRecords")
                        json.array(skipped) { json, entry in
                            json.object { json in
                                json.member("count", entry.count)
                                json.memberIfPresent("detail", entry.detail)
                                json.member("reason", entry.reason)
                            }
                        }
                    }
                    json.memberIfPresent("verifiedSignatures", input.verifiedSignatures)
                }
            }
            json.key("notes")
            json.array(notes) { $1.write(to: &$0) }
            json.key("rulePack")
            json.object { json in
                json.key("files")
                json.array(rulePack.files) { json, file in
                    json.object { json in
                        json.member("path", file.path)
                        json.member("rules", strings: file.rules)
                        json.member("sha256", file.sha256)
                    }
                }
                json.member("sha256", rulePack.sha256)
            }
            json.key("rules")
            json.array(rules) { json, rule in
                json.object { json in
                    json.member("checked", rule.checked)
                    json.member("controls", strings: rule.controls)
                    json.member("file", rule.file)
                    json.member("id", rule.id)
                    json.member("pending", rule.pending)
                    json.member("scope", rule.scope)
                    json.member("severity", rule.severity)
                    json.member("title", rule.title)
                    json.member("violated", rule.violated)
                }
            }
            if let shard {
                json.key("shard")
                json.object { json in
                    json.member("count", shard.count)
                    json.member("index", shard.index)
                }
            }
            if let showsPII { json.member("showsPII", showsPII) }
            json.key("skipped")
            json.array(skipped) { $1.write(to: &$0) }
            json.key("summary")
            summary.write(to: &json)
            json.key("suppressions")
            json.array(suppressions) { $1.write(to: &$0) }
            json.key("tool")
            json.object { json in
                json.member("informationURI", tool.informationURI)
                json.member("name", tool.name)
                json.member("version", tool.version)
            }
            json.member("version", version)
        }
    }
}

extension JSONReportDocument.Summary {
    fileprivate func write(to writer: inout PrettyJSONWriter) {
        writer.object { json in
            json.member("accounts", accounts)
            json.member("anonymizedSubjects", anonymizedSubjects)
            json.member("baselined", baselined)
            json.key("bySeverity")
            json.object { json in
                for (severity, count) in bySeverity.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }) {
                    json.member(severity, count)
                }
            }
            json.member("duplicates", duplicates)
            json.member("events", events)
            json.member("findings", findings)
            json.member("pending", pending)
            json.member("skipped", skipped)
            json.member("subjects", subjects)
            json.member("suppressed", suppressed)
        }
    }
}

extension JSONReportDocument.FindingEntry {
    func write(to writer: inout PrettyJSONWriter) {
        writer.object { json in
            json.member("app", app)
            json.memberOrNull("event", event)
            json.key("evidence")
            json.array(evidence) { json, item in
                json.object { json in
                    json.member("event", item.event)
                    json.key("location")
                    item.location.write(to: &json)
                    json.memberIfPresent("note", item.note)
                    json.member("role", item.role)
                    json.member("time", item.time)
                    json.member("type", item.type)
                }
            }
            json.member("expected", expected)
            json.member("fingerprint", fingerprint)
            if let location {
                json.key("location")
                location.write(to: &json)
            }
            json.member("message", message)
            json.member("rule", rule)
            json.member("severity", severity)
            json.member("subject", subject)
            if let suppression {
                json.key("suppression")
                suppression.write(to: &json)
            }
            json.memberOrNull("time", time)
        }
    }
}

extension JSONReportDocument.SuppressionEntry {
    fileprivate func write(to writer: inout PrettyJSONWriter) {
        writer.object { json in
            json.member("author", author)
            json.member("expires", expires)
            json.memberIfPresent("fingerprint", fingerprint)
            json.member("justification", justification)
            json.key("location")
            location.write(to: &json)
            json.memberIfPresent("matched", matched)
            json.memberIfPresent("rule", rule)
            json.memberIfPresent("status", status)
            json.memberIfPresent("subject", subject)
        }
    }
}

extension JSONReportDocument.DiagnosticEntry {
    fileprivate func write(to writer: inout PrettyJSONWriter) {
        writer.object { json in
            json.key("location")
            location.write(to: &json)
            json.member("message", message)
            json.member("severity", severity)
        }
    }
}

extension JSONReportDocument.Location {
    fileprivate func write(to writer: inout PrettyJSONWriter) {
        writer.object { json in
            json.memberIfPresent("column", column)
            json.member("file", file)
            json.member("line", line)
        }
    }
}
