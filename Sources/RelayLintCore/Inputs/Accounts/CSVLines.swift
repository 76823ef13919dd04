/// The lines of a text, one at a time, without their line break (`\n` or `\r\n`): a row of a CSV
/// export read again line by line (`FirebaseCSVExportReader`) may be the rest of a file.
///
/// Line breaks are found as bytes: as a `Character`, a CRLF is one "\r\n" that a search for "\n"
/// passes over.
struct CSVLines: Sequence, IteratorProtocol {
    private let text: String
    private var start: String.Index?

    init(_ text: String) {
        self.text = text
        start = text.startIndex
    }

    mutating func next() -> Substring? {
        guard let lineStart = start else { return nil }
        let newline = text.utf8[lineStart...].firstIndex(of: 0x0A)
        var end = newline ?? text.endIndex
        start = newline.map { text.utf8.index(after: $0) }
        if end > lineStart, text.utf8[text.utf8.index(before: end)] == 0x0D { end = text.utf8.index(before: end) }
        return text[lineStart..<end]
    }
}
