/// Reading back the temporary file failed: the run cannot evaluate what it read.
struct SpillError: Error, CustomStringConvertible {
    let directory: String
    let reason: String

    var description: String { "cannot read back temporary data in '\(directory)': \(reason)" }
}
