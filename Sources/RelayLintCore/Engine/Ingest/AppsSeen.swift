/// The apps of the events read, by their index in the name table, until reading is over and the
/// default app is known: a `Set<String>` insert for every event took its hashing; a flag per app
/// costs a load.
struct AppsSeen {
    private struct Flags: OptionSet {
        let rawValue: UInt8
        static let seen = Flags(rawValue: 1)
        static let creatingAccounts = Flags(rawValue: 2)
    }

    /// By name index.
    private var flags: [Flags] = []
    /// The default app's (events without `app`).
    private var defaultApp: Flags = []

    /// An event of `app` (a name index; nil for the default app), which may create an account.
    mutating func insert(app: Int?, creating: Bool) {
        let flag: Flags = creating ? [.seen, .creatingAccounts] : .seen
        guard let app else {
            defaultApp.formUnion(flag)
            return
        }
        if app >= flags.count { flags += Array(repeating: [], count: app + 1 - flags.count) }
        flags[app].formUnion(flag)
    }

    /// Names the apps in the dataset's sets, once reading is over (the default app is known).
    func add(to dataset: inout Dataset, names: [String]) {
        func add(_ name: String, _ flag: Flags) {
            if flag.contains(.seen) { dataset.appsSeen.insert(name) }
            if flag.contains(.creatingAccounts) { dataset.appsCreatingAccounts.insert(name) }
        }
        add(dataset.defaultApp, defaultApp)
        for (index, flag) in flags.enumerated() where !flag.isEmpty { add(names[index], flag) }
    }
}
