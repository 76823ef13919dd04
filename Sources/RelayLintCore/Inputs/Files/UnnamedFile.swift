#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A temporary file removed from its directory as soon as it is made: no other process can open
/// it by name, and it vanishes with the process however the run ends.
enum UnnamedFile {
    /// An open descriptor (read and write) of a new unnamed file in `directory`, its name while it
    /// had one starting with `prefix`; nil when the directory takes no file.
    static func make(in directory: String, prefix: String) -> Int32? {
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
        template += Array("\(prefix)-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }
}
