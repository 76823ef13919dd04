import Foundation

/// A pipe whose first bytes were read to recognise its format, still open: its reader takes
/// `prefix` first, then reads on from `handle`.
final class OpenedInput: @unchecked Sendable {
    let prefix: [UInt8]
    let handle: FileHandle

    init(prefix: [UInt8], handle: FileHandle) {
        self.prefix = prefix
        self.handle = handle
    }

    deinit { try? handle.close() }
}
