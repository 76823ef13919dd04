import Foundation

/// CSV as the files relaylint reads write it: Firebase's account export and `--subject-map`.
/// Written by hand rather than with a CSV library because legacy exports contain bare `"` inside
/// unquoted display names, which strict RFC 4180 readers reject.
enum CSVText {
    /// The first invalid UTF-8 byte of each line that has one, as 1-based line and byte column.
    static func invalidUTF8(in data: Data) -> InvalidUTF8Lines { InvalidUTF8Lines(data) }

    /// Hands each row of CSV text to `body` with its fields and the 1-based line it starts on,
    /// one row at a time: a file of millions of empty lines held as rows took 45 times its size.
    /// Quoted fields may hold commas, doubled quotes and line breaks; a quote inside an unquoted
    /// field is kept as it is (legacy exporters did not escape it). Past `maxFields`, fields are
    /// counted (`fieldCount`) but not kept: a line of 50M commas is one row, not 50M strings.
    /// A CR alone is dropped, or ends a row with `crEndsRows` (a classic Mac spreadsheet's file);
    /// the account export keeps it dropped, as an old exporter left a CR in a name unquoted.
    ///
    /// With `backslashEscapesQuotes`, a `"` right after a `\` inside a quoted field is kept and
    /// does not end it: firebase-tools doubles the quotes of custom claims only where no
    /// backslash escapes them already.
    ///
    /// `strayText` is told the line of each row where text follows a quoted field's closing
    /// quote (`"Bob "B" Jr`), and the field's position: not CSV, and the sign of a quote that was
    /// bare text, whose quoted field may have run on over the rows after it. Without
    /// `spaceAfterQuoteIsStray`, a space or tab right after the quote is not (cells trimmed anyway).
    ///
    /// `unclosedQuote` is told the line of a quote that opens a field and never closes, before
    /// the last row (the rest of the text, read as that field) is handed to `body`.
    static func forEachRow(
        of text: String, maxFields: Int, crEndsRows: Bool = false, backslashEscapesQuotes: Bool = false,
        strayText: ((_ line: Int, _ field: Int) -> Void)? = nil, spaceAfterQuoteIsStray: Bool = true,
        unclosedQuote: ((_ line: Int) -> Void)? = nil,
        _ body: (_ fields: [String], _ fieldCount: Int, _ line: Int) throws -> Void
    ) rethrows {
        var quoteLine = 1
        var fields: [String] = []
        var fieldCount = 0
        var field = ""
        var line = 1
        var rowStart = 1
        var inQuotes = false
        var fieldStarted = false
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let scalar = pending {
                pending = nil
                return scalar
            }
            return iterator.next()
        }
        while let scalar = next() {
            if inQuotes {
                if scalar == "\"", backslashEscapesQuotes, field.unicodeScalars.last == "\\" {
                    field.unicodeScalars.append(scalar)
                } else if scalar == "\"" {
                    let following = next()
                    if following == "\"" {
                        field.unicodeScalars.append("\"")
                    } else {
                        inQuotes = false
                        pending = following
                        if let following, following != ",", following != "\n", following != "\r",
                            spaceAfterQuoteIsStray || (following != " " && following != "\t"), let strayText
                        {
                            strayText(rowStart, fieldCount)
                        }
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where !fieldStarted:
                inQuotes = true
                fieldStarted = true
                quoteLine = line
            case ",":
                if fields.count < maxFields { fields.append(field) }
                fieldCount += 1
                field = ""
                fieldStarted = false
            case "\r", "\n":
                if scalar == "\r" {
                    guard crEndsRows else { continue }
                    let following = next()
                    pending = following
                    if following == "\n" { continue }
                }
                if fields.count < maxFields { fields.append(field) }
                try body(fields, fieldCount + 1, rowStart)
                fields = []
                fieldCount = 0
                field = ""
                fieldStarted = false
                line += 1
                rowStart = line
            default:
                field.unicodeScalars.append(scalar)
                fieldStarted = true
            }
        }
        if inQuotes, let unclosedQuote { unclosedQuote(quoteLine) }
        if fieldStarted || !fields.isEmpty || !field.isEmpty {
            if fields.count < maxFields { fields.append(field) }
            try body(fields, fieldCount + 1, rowStart)
        }
    }
}
