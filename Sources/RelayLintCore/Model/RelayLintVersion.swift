/// The tool's version, as reports and `--version` show it.
public enum RelayLintVersion {
    public static let current = "0.1.0"
}
