/// Where an element of a JSON array that does not parse ends: an element that is not JSON only
/// where a value is misspelt (a time without quotes, `tru`) is an invalid record of its own, as
/// a bad line of JSON Lines is, and the elements after it are read (`MappedLogReader`) and
/// recognised (`EventLogFormat`).
enum ArrayElementEnd {
    /// Where the element at `first`, whose strict parse failed at `error`, ends: just before the
    /// `,` or `]` after it. Found only where it can be trusted: the error lies outside strings, at
    /// a misspelt value (the run of bytes from it to the next `,`, `}`, `]` or line break), and
    /// the element with that run read as a number parses strictly up to there. Nil for anything
    /// else: an empty element (`[1,,2]`, a trailing comma), a missing comma or colon, an error
    /// inside a string, the bytes ending first.
    ///
    /// Brackets and quotes alone do not tell: past a value whose opening quote is missing
    /// (`"logName": projects/x"`) they read strings as structure and structure as strings, and
    /// swallowed good elements into one invalid record unseen.
    static func afterMisspeltValue(ofElementAt first: Int, failingAt error: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var closers: [UInt8] = []
        var misspelt: Range<Int>?
        var index = first
        while index < bytes.count {
            if misspelt == nil, index >= error {
                // The error inside the string just passed, or past the end.
                guard index == error else { return nil }
                var end = error
                while end < bytes.count, !valueEnds.contains(bytes[end]) { end += 1 }
                guard end > error, end < bytes.count else { return nil }
                misspelt = error..<end
                index = end
                continue
            }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index = PlainTextScan.closingQuote(ofStringAt: index, in: bytes)
                guard index < bytes.count else { return nil }
            case UInt8(ascii: "{"): closers.append(UInt8(ascii: "}"))
            case UInt8(ascii: "["): closers.append(UInt8(ascii: "]"))
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","):
                if let closer = closers.last {
                    if bytes[index] == closer {
                        closers.removeLast()
                    } else if bytes[index] != UInt8(ascii: ",") {
                        return nil
                    }
                } else {
                    guard bytes[index] != UInt8(ascii: "}"), let misspelt else { return nil }
                    return parsesWithValueRead(bytes[first..<index], misspelt: misspelt) ? index : nil
                }
            default: break
            }
            index += 1
        }
        return nil
    }

    /// Whether `element` parses strictly, whitespace around it, once its `misspelt` run is read
    /// as the number 0 (spaces after it keep every offset).
    private static func parsesWithValueRead(_ element: Slice<UnsafeBufferPointer<UInt8>>, misspelt: Range<Int>) -> Bool {
        var copy = Array(element)
        let start = misspelt.lowerBound - element.startIndex
        copy[start] = UInt8(ascii: "0")
        for index in start + 1..<start + misspelt.count { copy[index] = UInt8(ascii: " ") }
        return copy.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer)
            do throws(JSONParser.SyntaxError) {
                parser.skipWhitespace()
                try parser.skipValue(depth: 1)
                parser.skipWhitespace()
                return parser.isAtEnd
            } catch {
                return false
            }
        }
    }

    /// What ends a misspelt value: what may follow a value in an object or a list, and a line
    /// break (a value spans no line).
    private static let valueEnds: Set<UInt8> = Set(",}]\r\n".utf8)
}
