extension String {
    /// Calls `body` with the string's UTF-8 bytes, read in place where they lie in one piece
    /// (every string relaylint makes), and from a copy otherwise.
    ///
    /// `withUTF8` is mutating, so calling it on a parameter takes a copy of the string first: a
    /// retain and a release of its storage, which hashing, packing and comparing names paid on
    /// every event.
    @inline(__always)
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}
