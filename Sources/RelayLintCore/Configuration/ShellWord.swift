import Foundation

/// A word of a command line printed for a person to paste into a shell.
enum ShellWord {
    /// `word` as the shell reads it back: as it is when it holds only characters no shell
    /// treats specially, else in single quotes (a quote inside as `'\''`), or, when it holds a
    /// control character (a file name with a line break), as bash, zsh and ksh read `$'…'`, each
    /// control character and backslash escaped: `init --output-directory 'my dir'` printed
    /// `--config my dir/.relaylint.yml`, two words, and a name's raw line break broke the line.
    static func quoted(_ word: String) -> String {
        let plain = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=@%+,-".unicodeScalars)
        if !word.isEmpty, word.unicodeScalars.allSatisfy(plain.contains) { return word }
        guard word.unicodeScalars.contains(where: isControl) else {
            return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        }
        let escaped = word.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "\\": return #"\\"#
            case "'": return #"\'"#
            case "\n": return #"\n"#
            case "\t": return #"\t"#
            case "\r": return #"\r"#
            default:
                return isControl(scalar) ? String(format: #"\u%04X"#, scalar.value) : String(scalar)
            }
        }
        return "$'" + escaped.joined() + "'"
    }

    /// A character a terminal or a line-based file would act on rather than show: the C0 and C1
    /// controls, DEL, and the line and paragraph separators.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
