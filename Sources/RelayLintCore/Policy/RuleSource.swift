/// Where rules come from: the built-in pack, or a rule file or folder of the user's.
public enum RuleSource: Sendable, Equatable {
    /// The built-in pack, compiled into the tool (or the folder `$RELAYLINT_RULES` names).
    case builtIn
    /// A rule file or a folder of rule files, searched recursively.
    case path(String)
}
