import Foundation
import FuzzSupport
@testable import RelayLintCore

@main enum FuzzAccountExportMain {
    static func main() { runFuzzer(fuzzAccountExport) }
}

/// The account export readers on any bytes: the first byte picks the reader (odd: CSV), the
/// rest is the file. Each returns accounts and diagnostics, or an input error; none crashes.
private func fuzzAccountExport(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzInput(data, count)
    guard let first = input.first else { return 0 }
    let bytes = UnsafeBufferPointer(rebasing: input.dropFirst())
    if first & 1 == 1 {
        let result = FirebaseCSVExportReader(path: "fuzz.csv").read(data: Data(buffer: bytes))
        for account in result.accounts { _ = StoredAccount.pack(account) }
    } else {
        _ = try? FirebaseJSONExportReader(path: "fuzz.json", parallelism: 1).read(bytes: bytes) { account in
            _ = StoredAccount.pack(account)
        }
    }
    return 0
}
