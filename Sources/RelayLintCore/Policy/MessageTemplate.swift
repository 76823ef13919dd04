/// A finding's message with `{placeholders}`, filled per finding.
///
/// Placeholders: `{subject}`, `{app}`, `{rule}`, `{event.FIELD}` (any field of the firing event,
/// `id`, `type` and `time` included), `{witness.FIELD}` (the event that satisfied or broke a
/// negative requirement), `{expected}`. Email addresses and phone numbers in the values (a
/// subject or app id that is one included) are masked unless PII display is on.
public struct MessageTemplate: Sendable, Equatable {
    enum Part: Sendable, Equatable {
        case text(String)
        case placeholder(String)
    }

    let parts: [Part]
    public let source: String

    /// The placeholder roots a template may use.
    static let roots: Set<String> = ["subject", "app", "rule", "expected", "event", "witness"]

    /// Parses a template; returns the problem for an unknown or unterminated placeholder.
    /// - Parameter roots: the placeholders this message may use (a `needs_declaration` message
    ///   knows `{app}`, `{rule}` and `{count}` only).
    /// - Parameter parameters: the rule's parameters by name, whose values `{params.NAME}` writes
    ///   as text: put into the message before it was parsed, a value with braces (`"{x}"` in a
    ///   configuration) was read as a placeholder, and blamed on the rule's file.
    static func parse(
        _ text: String, roots: Set<String> = roots, parameters: [String: String] = [:]
    ) -> Result<MessageTemplate, InputProblem> {
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "{" {
                guard let close = text[index...].firstIndex(of: "}") else {
                    return .failure(InputProblem("unterminated '{' in message"))
                }
                let name = String(text[text.index(after: index)..<close]).trimmingWhitespace
                if name.hasPrefix("params."), let value = parameters[String(name.dropFirst("params.".count))] {
                    literal += value
                    index = text.index(after: close)
                    continue
                }
                let root = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
                guard roots.contains(root), (root == "event" || root == "witness") == name.contains(".") else {
                    let known = ["subject", "app", "rule", "expected", "count", "event.FIELD", "witness.FIELD"].filter {
                        roots.contains(String($0.prefix { $0 != "." }))
                    }
                    let list = known.dropLast().map { "{\($0)}" }.joined(separator: ", ") + " or {\(known.last ?? "")}"
                    return .failure(InputProblem("unknown placeholder '{\(name)}' in message (use \(list))"))
                }
                if !literal.isEmpty { parts.append(.text(literal)) }
                literal = ""
                parts.append(.placeholder(name))
                index = text.index(after: close)
            } else {
                literal.append(character)
                index = text.index(after: index)
            }
        }
        if !literal.isEmpty { parts.append(.text(literal)) }
        return .success(MessageTemplate(parts: parts, source: text))
    }

    /// The most bytes of a filled message: once past it, the rest is left out for "…". A rule's
    /// message is copied into every finding: one naming a 50 KB field 2,000 times made a 1 GB
    /// report of a 500 KB log.
    static let longestMessageBytes = 4_096

    /// The most Unicode scalars of a value a message shows (its start, then "…").
    static let longestValue = 256

    /// Fills the placeholders; `value` answers a placeholder name or nil for "not set". A value
    /// is shown to `longestValue` scalars, and the message to about `longestMessageBytes`
    /// (whole up to there: a value is cut after it is masked, so no address is cut open).
    /// - Parameter subject: the finding's subject: a value that holds it (an event id made of
    ///   it) shows it masked as the subject is, before the value is cut, so that no cut leaves
    ///   part of a number the masking no longer sees whole.
    func render(masker: PIIMasker, subject: String = "", value: (String) -> String?) -> String {
        var output = ""
        for part in parts {
            guard output.utf8.count <= Self.longestMessageBytes else {
                output += "…"
                break
            }
            switch part {
            case .text(let text): output += text
            case .placeholder(let name):
                if let filled = value(name) {
                    switch name {
                    case "rule", "expected", "count": output += filled
                    case "subject": output += masker.maskSubjectID(filled).shortened(to: Self.longestValue)
                    default: output += masker.maskText(filled, keepingSubjectID: subject).shortened(to: Self.longestValue)
                    }
                } else {
                    output += "(unset)"
                }
            }
        }
        return output
    }
}

extension String {
    var trimmingWhitespace: String { RelayDomains.trimWhitespace(self) }
}
