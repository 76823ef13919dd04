import Foundation

/// Writes reports as they are made: a JSON report of 300k findings is 384 MB, which a `String`
/// and then a `Data` copy of it held twice over.
enum ReportBytes {
    /// Hands a report's UTF-8 to its argument, piece by piece (`Reporter.write`).
    typealias Producer = ((UnsafeRawBufferPointer) -> Void) -> Void

    /// A text already made, as one piece.
    static func pieces(of text: String) -> Producer {
        { sink in
            var text = text
            text.withUTF8 { sink(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Creates or replaces the file at `path` with what `produce` hands over. When a write
    /// fails (a full disk), a partial regular file is removed, so that no truncated report is
    /// left for a pipeline to pick up.
    ///
    /// The path is opened once (created, or truncated): a named pipe opened, closed and opened
    /// again gave its reader an end of file before the report, and the second open then waited
    /// for a reader forever.
    static func write(toPath path: String, _ produce: Producer) throws {
        let url = URL(fileURLWithPath: path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
        do {
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            var failure: (any Error)?
            produce { bytes in
                guard failure == nil else { return }
                do { try withData(bytes) { try handle.write(contentsOf: $0) } } catch { failure = error }
            }
            if let failure {
                try? handle.close()
                throw failure
            }
            try handle.close()
        } catch {
            // Only a regular file: `--output /dev/stdout` must never remove a device.
            if (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular {
                try? FileManager.default.removeItem(at: url)
            }
            throw error
        }
    }

    /// The bytes as `Data`, without copying them, for the length of `body`.
    static func withData<Result>(_ bytes: UnsafeRawBufferPointer, _ body: (Data) throws -> Result) rethrows -> Result {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return try body(Data()) }
        return try body(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none))
    }
}
