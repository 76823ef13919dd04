/// Where rules come from: the built-in pack, or a rule file or folder of the user's.
public enum RuleSource: Sendable, Equatable {
    /// The built-in pack, compiled into the tool (or the folder `$RELAYLINT_RULES` names).
    case builtIn
    /// A rule file or a folder of rule files, searched recursively.
    case path(String)

    /// The word that names the built-in pack where a path is expected (`--rules builtin`).
    public static let builtInName = "builtin"

    /// Reads a command-line value: `builtin` is the built-in pack, anything else a path (a
    /// folder that happens to be called so is `./builtin`).
    public init(argument: String) {
        self = argument == Self.builtInName ? .builtIn : .path(argument)
    }
}
