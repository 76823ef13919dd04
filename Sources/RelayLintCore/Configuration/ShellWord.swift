import Foundation

/// A word of a command line printed for a person to paste into a POSIX shell.
enum ShellWord {
    /// `word` as the shell reads it back: as it is when it holds only characters no shell
    /// treats specially, else in single quotes (a quote inside as `'\''`). `init
    /// --output-directory 'my dir'` printed `--config my dir/.relaylint.yml`, two words.
    static func quoted(_ word: String) -> String {
        let plain = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=@%+,-".unicodeScalars)
        if !word.isEmpty, word.unicodeScalars.allSatisfy(plain.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
