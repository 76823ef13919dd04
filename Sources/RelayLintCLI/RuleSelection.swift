import ArgumentParser
import RelayLintCore

/// `--enable` and `--disable`: turning rules on and off for one run, over the configuration.
struct RuleSelection: ParsableArguments {
    @Option(
        name: .customLong("enable"),
        help: ArgumentHelp("Run a rule the configuration turns off (`enabled: false`); repeatable.", valueName: "rule-id"))
    var enabled: [String] = []

    @Option(
        name: .customLong("disable"),
        help: ArgumentHelp("Do not run a rule in this run; repeatable.", valueName: "rule-id"))
    var disabled: [String] = []

    func validate() throws {
        guard !ArgumentChecks.areHeldBack else { return }
        if let both = enabled.first(where: disabled.contains) {
            throw ValidationError("rule '\(both)' is given with both --enable and --disable")
        }
    }
}
