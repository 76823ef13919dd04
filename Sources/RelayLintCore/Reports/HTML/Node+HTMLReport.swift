import Plot

/// The few building blocks every part of the HTML report repeats: header rows, cells, fact
/// rows, severity badges. Each takes plain values and escapes them, so a section never handles
/// an input value as markup.
extension Node where Context == HTML.TableContext {
    /// A `<thead>` row of column titles; the columns at `numeric` are right-aligned.
    static func headerRow(_ titles: [String], numeric: Set<Int> = []) -> Node {
        .thead(
            .tr(
                .group(
                    titles.enumerated().map { index, title in
                        .th(
                            .escapedAttribute(named: "scope", value: "col"), .if(numeric.contains(index), .class("num")),
                            .escapedText(title))
                    })))
    }

    /// A row of a two-column facts table: a label and its value.
    static func fact(_ label: String, _ value: Node<HTML.BodyContext>) -> Node {
        .tr(.th(.escapedAttribute(named: "scope", value: "row"), .escapedText(label)), .td(value))
    }

    /// A fact whose value is plain text.
    static func fact(_ label: String, text value: String) -> Node {
        fact(label, .escapedText(value))
    }
}

extension Node where Context == HTML.TableRowContext {
    static func cell(_ value: String) -> Node { .td(.escapedText(value)) }

    /// A cell for identifiers and paths, in a monospace font that wraps anywhere.
    static func codeCell(_ value: String) -> Node { .td(.code(.escapedText(value))) }

    static func numberCell(_ value: Int) -> Node { .td(.class("num"), .escapedText(String(value))) }

    /// An identifier that is normally short (an event id or type): kept on one line unless it
    /// is long enough to need wrapping, which only unusual input is.
    static func identifierCell(_ value: String) -> Node {
        .td(.if(value.count <= 24, .class("nowrap")), .code(.escapedText(value)))
    }

    /// A file path or `path:line:column`: on one line when it is short, else in a column wide
    /// enough that it breaks only where it must.
    static func pathCell(_ value: String) -> Node {
        .td(.class(value.count <= 40 ? "path nowrap" : "path"), .code(.escapedText(value)))
    }

    /// A SHA-256, wrapped onto two short lines so that the other columns keep their room.
    static func hashCell(_ value: String) -> Node { .td(.class("hash"), .code(.escapedText(value))) }
}

extension Node where Context: HTML.BodyContext {
    /// `error`, `warning` or `note` as a coloured label.
    static func badge(_ severity: Severity) -> Node {
        .span(.class("badge " + severity.rawValue), .escapedText(severity.rawValue))
    }

    /// An identifier, path or hash from the inputs.
    static func codeText(_ value: String) -> Node { .code(.escapedText(value)) }

    /// An app's bundle id as code, or the words for data without an app.
    static func appName(_ bundleId: String) -> Node {
        bundleId == UnnamedApp.id ? .missing(UnnamedApp.readableSubject(bundleId)) : .codeText(bundleId)
    }

    /// A value that was not given (`not given`, `—`), greyed out so it is not mistaken for data.
    static func missing(_ text: String) -> Node { .span(.class("muted"), .escapedText(text)) }
}
