/// What a file given as an account export looks like when it is not one of the kind its name
/// says: `--accounts` tells CSV from JSON by the name (`.csv`), so a JSON export saved as `.csv`
/// gave an "expected 28 or 52 columns" error for each of its lines (with `--skip-invalid`, every
/// account dropped and the run passed), and a log given to it an "unexpected text after the JSON
/// value" that said nothing of what the file was.
enum AccountExportShape {
    /// The problem with the start of a file read as an export (CSV when `isCSV`), said as
    /// `--events` says what a file of another kind is, with the line its first record starts on
    /// (after blank lines); nil for a file that may be one.
    static func problem(startOf bytes: UnsafeBufferPointer<UInt8>, isCSV: Bool) -> (message: String, line: Int)? {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[start]) { start += 1 }
        guard start < bytes.count else { return nil }
        let line = 1 + UnsafeBufferPointer(rebasing: bytes[..<start]).count { $0 == 0x0A }
        let lineEnd = UnsafeBufferPointer(rebasing: bytes[start...]).firstIndex(of: 0x0A).map { $0 + start } ?? bytes.count
        let firstLine = UnsafeBufferPointer(rebasing: bytes[start..<lineEnd])
        let opensJSON =
            opensJSONMember(UnsafeBufferPointer(rebasing: bytes[start...]))
            || ((bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[")) && !isCSVRow(firstLine))
        if isCSV {
            guard opensJSON else {
                // Only a file with no line feed at all: a quoted cell may hold a carriage return.
                guard !bytes[start...].contains(0x0A) else { return nil }
                return endsRowsInCarriageReturn(UnsafeBufferPointer(rebasing: bytes[start...]))
                    ? (EventLogFormat.carriageReturnRefusal(convertedTo: "FILE.csv"), line) : nil
            }
            return (
                "this is JSON, not CSV: a CSV export is told by its .csv name; give a JSON export a name that does not end in .csv",
                line
            )
        }
        guard opensJSON else {
            return isCSVRow(firstLine)
                ? ("this looks like CSV: a CSV export is told by its .csv name; give it a name that ends in .csv", line) : nil
        }
        // Valid JSON, but every place in it was told at line 1.
        if EventLogFormat.endsLinesInCarriageReturnOnly(UnsafeBufferPointer(rebasing: bytes[start...])) {
            return (EventLogFormat.carriageReturnRefusal(convertedTo: "FILE.json"), line)
        }
        // One record on the first line: a log's, or an export written on one line.
        guard case .object(let members)? = try? JSONParser.parseRecord(firstLine), members["users"] == nil else { return nil }
        let log: String?
        if EventLogFormat.isNativeEvent(members) {
            log = "a relaylint event log"
        } else if members["insertId"] != nil || members["logName"] != nil || members["protoPayload"] != nil
            || members["jsonPayload"] != nil
        {
            log = "a Google Cloud Logging log"
        } else if members["payload"] != nil || (members["iss"] != nil && members["events"] != nil) {
            log = "a log of Sign in with Apple notifications"
        } else {
            log = nil
        }
        return log.map { ("this is \($0), not an account export: pass it with --events", line) }
    }

    /// Whether `text` opens JSON with a key or a record as an export does: `{` before a
    /// string (`{"users": [`), `[` before an object that does (`[{"uid": …`). No CSV uid opens
    /// so; a JSON export one user per line has the commas of a CSV row on its first line.
    private static func opensJSONMember(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let blank: [UInt8] = [0x20, 0x09, 0x0D, 0x0A]
        var index = 0
        func next() -> UInt8? {
            index += 1
            while index < text.count, blank.contains(text[index]) { index += 1 }
            return index < text.count ? text[index] : nil
        }
        guard let first = text.first else { return false }
        if first == UInt8(ascii: "[") {
            guard next() == UInt8(ascii: "{") else { return false }
        } else if first != UInt8(ascii: "{") {
            return false
        }
        return next() == 0x22
    }

    /// Whether a first line is a Firebase CSV row: 28 or 52 cells, 27 commas or more outside
    /// quoted cells. Its uid may open with a bracket (a braced GUID `{3F2504E0-…}`, `[]`),
    /// which was taken for JSON.
    private static func isCSVRow(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var quoted = false
        var commas = 0
        for byte in line {
            if byte == 0x22 { quoted.toggle() } else if byte == UInt8(ascii: ","), !quoted { commas += 1 }
        }
        return commas >= 27
    }

    /// Whether a CSV text without a line feed holds rows ended by a carriage return alone:
    /// one outside a quoted cell with more content after it. A one-row export whose quoted name
    /// holds a carriage return was refused.
    private static func endsRowsInCarriageReturn(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        // Only before the last byte of content: a run of trailing carriage returns was looked
        // past for content once for each of them.
        guard let last = text.lastIndex(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { return false }
        var quoted = false
        for byte in text[..<last] {
            if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if byte == 0x0D, !quoted {
                return true
            }
        }
        return false
    }
}
