/// A text as `PIIMasker` looks for addresses and numbers in it: as a reader sees it, not as it is
/// spelled. A report is read by people, so what they would read as an address must be masked
/// whatever characters spell it:
/// - characters that show nothing are left out: format characters (zero-width spaces and joiners,
///   soft hyphens, bidirectional marks and overrides) and control characters other than tab and
///   line ends (`secretjane\u{1}@example.com` is printed escaped, and reads as the address);
/// - compatibility forms become the ASCII they show: fullwidth `＠`, letters and digits, the
///   small commercial at `﹫`, the ideographic full stops IDNA reads as dots;
/// - decimal digits of any script become ASCII digits (`٠٦١٢٣٤٥٦٧٨` is a phone number);
/// - an at sign, plus sign, dot or space escaped for HTML or URLs is read as the character
///   (`jane&#64;example.com`, `&commat;`, `%40`, `%2B1`): a value quoted from a web form or a
///   request log keeps its escapes.
///
/// Each folded scalar remembers the span of the text it stands for, so the masker replaces the
/// original characters and copies the rest as it was written.
struct FoldedText {
    /// The text as read.
    let scalars: [Unicode.Scalar]
    /// Where each scalar of `scalars` was written in the original: its first and one past its
    /// last original scalar; empty when the text reads as it is written (`isAsWritten`).
    private let starts: [Int]
    private let ends: [Int]
    private let isAsWritten: Bool
    /// The original scalars.
    let original: [Unicode.Scalar]

    init(_ text: String) {
        let original = Array(text.unicodeScalars)
        // Printable ASCII without an escape reads as it is written, as most report text does:
        // no folding, and no place to remember for each scalar.
        if text.utf8.allSatisfy({ (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "%") && $0 != UInt8(ascii: "&") }) {
            self.original = original
            scalars = original
            starts = []
            ends = []
            isAsWritten = true
            return
        }
        var scalars: [Unicode.Scalar] = []
        var starts: [Int] = []
        var ends: [Int] = []
        scalars.reserveCapacity(original.count)
        starts.reserveCapacity(original.count)
        ends.reserveCapacity(original.count)
        var index = 0
        while index < original.count {
            let scalar = original[index]
            if let (read, length) = Self.escape(in: original, at: index) {
                scalars.append(read)
                starts.append(index)
                ends.append(index + length)
                index += length
                continue
            }
            if let read = Self.fold(scalar) {
                scalars.append(read)
                starts.append(index)
                ends.append(index + 1)
            }
            index += 1
        }
        self.original = original
        self.scalars = scalars
        self.starts = starts
        self.ends = ends
        isAsWritten = false
    }

    /// Where the scalar `index` of `scalars` starts in `original`.
    func start(of index: Int) -> Int { isAsWritten ? index : starts[index] }

    /// Just past where the scalar `index` of `scalars` ends in `original`.
    func end(of index: Int) -> Int { isAsWritten ? index + 1 : ends[index] }

    /// The original text of the folded scalars `range`, without the characters left out between
    /// them (a masked address's kept domain, as it was written).
    func written(_ range: Range<Int>) -> String.UnicodeScalarView {
        if isAsWritten { return String.UnicodeScalarView(original[range]) }
        var view = String.UnicodeScalarView()
        for index in range { view.append(contentsOf: original[starts[index]..<ends[index]]) }
        return view
    }

    /// The scalar a reader sees for `scalar`, or nil for one that shows nothing.
    private static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let value = scalar.value
        if value < 0x80 {
            // Tab, line feed and carriage return separate words; other controls show nothing.
            if value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D || value == 0x7F { return nil }
            return scalar
        }
        switch value {
        // Fullwidth ASCII (`＠`, `ｊ`, `０`): the ASCII character it is a form of.
        case 0xFF01...0xFF5E: return Unicode.Scalar(value - 0xFEE0)
        case 0xFE6B: return "@"  // small commercial at
        case 0x3002, 0xFF61, 0xFE52: return "."  // ideographic, halfwidth ideographic and small full stops
        default: break
        }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .format, .control: return nil
        case .decimalNumber:
            if let digit = properties.numericValue, digit >= 0, digit <= 9 {
                return Unicode.Scalar(UInt8(ascii: "0") + UInt8(digit))
            }
            return scalar
        default: return scalar
        }
    }

    /// Characters HTML and URLs escape, as a reader sees them: the character and how many
    /// scalars spell it, or nil when none starts at `index`.
    private static func escape(in scalars: [Unicode.Scalar], at index: Int) -> (Unicode.Scalar, Int)? {
        switch scalars[index] {
        case "%":
            // `%40`, `%2B`, `%2E`, `%20`: an at sign, plus sign, dot or space percent-encoded.
            guard index + 2 < scalars.count, let high = hexDigit(scalars[index + 1]), let low = hexDigit(scalars[index + 2]) else {
                return nil
            }
            switch high << 4 | low {
            case 0x40: return ("@", 3)
            case 0x2B: return ("+", 3)
            case 0x2E: return (".", 3)
            case 0x20: return (" ", 3)
            default: return nil
            }
        case "&":
            // A character reference: `&#64;`, `&#x40;`, or the names HTML gives `@`, `+` and `.`.
            guard let semicolon = scalars[(index + 1)..<min(index + 12, scalars.count)].firstIndex(of: ";") else { return nil }
            let name = String(String.UnicodeScalarView(scalars[(index + 1)..<semicolon]))
            let length = semicolon + 1 - index
            switch name {
            case "commat": return ("@", length)
            case "plus": return ("+", length)
            case "period": return (".", length)
            default: break
            }
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let number = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            // Printable ASCII only: a reference to anything else is left as it is written.
            guard let number, (0x20...0x7E).contains(number), let read = Unicode.Scalar(number) else { return nil }
            return (read, length)
        default:
            return nil
        }
    }

    private static func hexDigit(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 0x30
        case "a"..."f": scalar.value - 0x61 + 10
        case "A"..."F": scalar.value - 0x41 + 10
        default: nil
        }
    }
}
