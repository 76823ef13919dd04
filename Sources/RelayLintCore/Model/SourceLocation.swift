/// A place in one of the tool's input files: where a finding's event or a diagnostic's problem is.
public struct SourceLocation: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The file path as the user gave it.
    public var file: String
    /// 1-based line; 0 when the whole file is meant.
    public var line: Int
    /// 1-based column, when known (YAML and JSON syntax errors).
    public var column: Int?

    public init(file: String, line: Int = 0, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `path:line:col`, the prefix editors and CI logs turn into links.
    public var description: String {
        var text = file
        if line > 0 { text += ":\(line)" }
        if let column, line > 0 { text += ":\(column)" }
        return text
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column ?? 0) < (rhs.file, rhs.line, rhs.column ?? 0)
    }
}
