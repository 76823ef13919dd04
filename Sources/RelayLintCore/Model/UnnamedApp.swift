/// The app of data that names none: events without an `app` field, when the manifest does not
/// list exactly one app (contract §2.4, "Apps"). Machine-readable reports keep the contract's id
/// `"app"`; messages and readable reports say what it is, so no one reads of an app called "app".
public enum UnnamedApp {
    /// The id the contract gives it, in JSON reports, fingerprints and suppressions.
    public static let id = "app"

    /// How a message names it: what the data is, and how to give it a name.
    /// - Parameter hasManifest: whether a manifest was given (then it lists several apps).
    public static func readableName(hasManifest: Bool) -> String {
        hasManifest
            ? "data without an app (its events have no app field and the manifest lists several apps)"
            : "data without an app (add a manifest to name the app)"
    }

    /// How a readable report's subject line names an app finding's subject.
    public static func readableSubject(_ subject: String) -> String {
        subject == id ? "data without an app" : subject
    }
}
