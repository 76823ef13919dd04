import Foundation

extension UnsafeBufferPointer<UInt8> {
    /// Whether both hold the same bytes: one `memcmp`, where `elementsEqual` walks them one by one.
    func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        count == other.count && (isEmpty || memcmp(baseAddress!, other.baseAddress!, count) == 0)
    }
}
