import Foundation

/// Finds the built-in rule pack, which SwiftPM copies from the top-level `Rules/` folder into the
/// core library's resource bundle.
///
/// `Bundle.module` aborts the process when the bundle is missing (for instance when only the
/// binary was copied somewhere), so the lookup is done here, in order:
/// 1. `$RELAYLINT_RULES`, a folder of rule files;
/// 2. `relaylint_RelayLintCore.resources/Rules` next to the executable (SwiftPM's layout; copy
///    this folder along with an installed binary);
/// 3. `../share/relaylint/Rules` relative to the executable (a Unix install prefix);
/// 4. the `Rules/` folder of the source checkout this library was built from.
enum BuiltInRules {
    static let environmentVariable = "RELAYLINT_RULES"
    static let bundleName = "relaylint_RelayLintCore.resources"

    static func directory() -> String? {
        candidates().first { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }

    static func candidates() -> [String] {
        var result: [String] = []
        if let override = ProcessInfo.processInfo.environment[environmentVariable], !override.isEmpty {
            result.append(override)
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        var executableDirectory = executable.deletingLastPathComponent()
        if let bundleExecutable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            executableDirectory = bundleExecutable.deletingLastPathComponent()
        }
        result.append(executableDirectory.appendingPathComponent(bundleName).appendingPathComponent("Rules").path)
        result.append(executableDirectory.appendingPathComponent(bundleName).appendingPathComponent("Contents/Resources/Rules").path)
        result.append(executableDirectory.deletingLastPathComponent().appendingPathComponent("share/relaylint/Rules").path)
        let checkout = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        result.append(checkout.appendingPathComponent("Rules").path)
        return result
    }
}
