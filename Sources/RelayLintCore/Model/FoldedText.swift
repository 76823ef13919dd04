/// A text as `PIIMasker` looks for addresses and numbers in it: as a reader sees it, not as it is
/// spelled. A report is read by people, so what they would read as an address must be masked
/// whatever characters spell it:
/// - characters that show nothing are left out: Unicode's default-ignorable code points
///   (zero-width spaces and joiners, soft hyphens, bidirectional marks and overrides, variation
///   selectors, the combining grapheme joiner, Hangul fillers);
/// - a control character is read both ways (`ControlCharacters`), as a report prints it escaped
///   (`\u{1}`, `\n`) or as a break: `secretjane\u{1}@example.com` and `jane@\nexample.com` read
///   as addresses, `tel\u{B}0612345678` holds a number; a tab or a line break (also U+2028 and
///   U+2029) is kept as written in the second reading, where the others become spaces;
/// - compatibility forms become the ASCII they show: fullwidth `＠`, letters and digits, the
///   small commercial at `﹫`, the ideographic full stops IDNA reads as dots;
/// - decimal digits of any script become ASCII digits (`٠٦١٢٣٤٥٦٧٨` is a phone number), as do
///   superscript, subscript and circled digits, and plus signs of other shapes become `+`;
/// - characters escaped for HTML or URLs are read as the characters they stand for
///   (`jane&#64;example.com`, `&commat;`, `&#x200B;`, `%40`, `%2B1`, the UTF-8 of `%EF%BC%A0`,
///   `%2540` encoded twice), and so are a string literal's (`\u0040`, `\x40`, `\\u0040` in a JSON
///   document held in a JSON string): a value quoted from a web form, a request log or a
///   serializer keeps its escapes.
///
/// Each folded scalar remembers the span of the text it stands for, so the masker replaces the
/// original characters and copies the rest as it was written.
struct FoldedText {
    /// How control characters are read; a tab or a line break (`isLineBreak`) is left out or kept.
    enum ControlCharacters {
        /// Left out, as characters that show nothing: what they stand between is joined.
        case leftOut
        /// As spaces (a tab or a line break as written): what they stand between is apart.
        case separating
    }

    /// The text as read.
    let scalars: [Unicode.Scalar]
    /// Where each scalar of `scalars` was written in the original: its first and one past its
    /// last original scalar; empty when the text reads as it is written (`isAsWritten`).
    private let starts: [Int]
    private let ends: [Int]
    private let isAsWritten: Bool
    /// The original scalars.
    let original: [Unicode.Scalar]
    /// Whether the text holds a control character, a tab or a line break, written or as
    /// a reference: only then do the two readings (`ControlCharacters`) differ.
    private(set) var heldControlCharacter = false
    /// Read with control characters left out: the scalars a left-out control character stood
    /// before. An address's domain ends there (`jane@example.com\u{1}0612…` is an address and
    /// a number, whatever the local part reads through).
    private(set) var afterLeftOutControl: Set<Int> = []
    /// Those of `afterLeftOutControl` where a tab or a line break was left out. A local part
    /// reads back through one only when it stands right before the `@` (`jane.doe\t@…`): a word
    /// on the line before is not part of the address (`Contact\nsupport@example.com`).
    private(set) var afterLeftOutLineBreak: Set<Int> = []

    init(_ text: String, controls: ControlCharacters) {
        let original = Array(text.unicodeScalars)
        // Printable ASCII without an escape reads as it is written, as most report text does:
        // no folding, and no place to remember for each scalar.
        if text.utf8.allSatisfy({
            (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "%") && $0 != UInt8(ascii: "&") && $0 != UInt8(ascii: "\\")
        }) {
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
            var (read, length) = Self.escape(in: original, at: index) ?? (original[index], 1)
            // A line break or tab inside an address or a number (`jane@\nexample.com`, `+1 415\r555…`)
            // is read both ways too: as written, and left out (each report shows it escaped, so
            // the address reads on); what either reading finds is masked.
            if Self.isLineBreak(read) {
                heldControlCharacter = true
                if controls == .leftOut {
                    afterLeftOutControl.insert(scalars.count)
                    afterLeftOutLineBreak.insert(scalars.count)
                    index += length
                    continue
                }
            }
            if Self.isControl(read) {
                heldControlCharacter = true
                read = " "
                if controls == .leftOut {
                    afterLeftOutControl.insert(scalars.count)
                    index += length
                    continue
                }
            }
            // A mark on a digit (an underline, a keycap `1️⃣`) leaves the digit a digit.
            if let last = scalars.last, ("0"..."9").contains(last),
                [.nonspacingMark, .enclosingMark].contains(read.properties.generalCategory)
            {
                index += length
                continue
            }
            // A raised, lowered or circled digit alone is a footnote mark or a symbol (`¹+1 415 …`,
            // `x²`), kept as it is; only a run of them reads as a number.
            let alone = read.properties.numericType == .digit && !Self.hasDigitNeighbour(original, at: index, length: length)
            if let folded = alone ? read : Self.fold(read) {
                scalars.append(folded)
                starts.append(index)
                ends.append(index + length)
            }
            index += length
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

    /// The original text of the folded scalars `range`, as it was written (a masked address's
    /// kept domain), onto `output`.
    func appendWritten(_ range: Range<Int>, to output: inout [Unicode.Scalar]) {
        guard !range.isEmpty else { return }
        output.append(contentsOf: original[start(of: range.lowerBound)..<end(of: range.upperBound - 1)])
    }

    /// Whether the scalar before `index` or the one after its `length` scalars is a raised,
    /// lowered or circled digit too.
    private static func hasDigitNeighbour(_ original: [Unicode.Scalar], at index: Int, length: Int) -> Bool {
        (index > 0 && original[index - 1].properties.numericType == .digit)
            || (index + length < original.count && original[index + length].properties.numericType == .digit)
    }

    /// Tab, line feed, carriage return and the Unicode line and paragraph separators.
    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x2028, 0x2029: true
        default: false
        }
    }

    /// A control character other than tab, line feed and carriage return (C0, DEL, C1).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }

    /// The scalar a reader sees for `scalar`, or nil for one that shows nothing.
    private static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let value = scalar.value
        if value < 0x80 { return scalar }
        switch value {
        // Fullwidth ASCII (`＠`, `ｊ`, `０`): the ASCII character it is a form of.
        case 0xFF01...0xFF5E: return Unicode.Scalar(value - 0xFEE0)
        case 0xFE6B: return "@"  // small commercial at
        case 0x3002, 0xFF61, 0xFE52: return "."  // ideographic, halfwidth ideographic and small full stops
        case 0xFE62, 0x207A, 0x208A, 0x2795: return "+"  // small, superscript, subscript and heavy plus signs
        case 0x2019: return "'"  // the apostrophe phones type (`o’brien@`)
        default: break
        }
        let properties = scalar.properties
        if properties.isDefaultIgnorableCodePoint || properties.generalCategory == .format { return nil }
        // Digits of any script, and the digits written raised, lowered or in a circle (`⁴¹⁵`,
        // `₄₁₅`, `④①⑤`): a number spelled in them reads as one. Not `⑩`, a number of its own.
        if properties.numericType == .decimal || properties.numericType == .digit, let digit = properties.numericValue, digit >= 0,
            digit <= 9
        {
            return Unicode.Scalar(UInt8(ascii: "0") + UInt8(digit))
        }
        return scalar
    }

    /// A character escaped for HTML, a URL or a string literal, and how many scalars spell it;
    /// nil when none starts at `index`.
    ///
    /// One that stands for the start of another escape stands for what that one stands for, as
    /// a text escaped twice in two ways reads (`&#x26;#64;`: `&#x26;` is the `&` of `&#64;`;
    /// `&#37;40`), up to `depth` times.
    private static func escape(in scalars: [Unicode.Scalar], at index: Int, depth: Int = 3) -> (Unicode.Scalar, Int)? {
        guard let (read, length) = singleEscape(in: scalars, at: index) else { return nil }
        guard depth > 0, "%&\\".unicodeScalars.contains(read) else { return (read, length) }
        // The escape read, then what follows it as written: at most the longest escape.
        let rest = scalars[(index + length)..<min(scalars.count, index + length + 16)]
        guard let (again, againLength) = escape(in: [read] + rest, at: 0, depth: depth - 1) else { return (read, length) }
        return (again, length + againLength - 1)
    }

    private static func singleEscape(in scalars: [Unicode.Scalar], at index: Int) -> (Unicode.Scalar, Int)? {
        switch scalars[index] {
        case "%":
            return percentEncoded(in: scalars, at: index)
        case "&":
            return characterReference(in: scalars, at: index)
        case "\\":
            return backslashEscape(in: scalars, at: index)
        default:
            return nil
        }
    }

    /// A percent-encoded character at the `%` at `index`, and how many scalars spell it:
    /// printable ASCII (`%40`, `%2B`, `%65`), a control character (`%01`, read as any is), or the
    /// UTF-8 of any other (`%EF%BC%A0`, a fullwidth at sign); encoded twice or more too, as a
    /// URL inside a URL is (`%2540`: `%25` is the `%` of `%40`).
    private static func percentEncoded(in scalars: [Unicode.Scalar], at index: Int) -> (Unicode.Scalar, Int)? {
        guard let (lead, afterLead) = percentEncodedByte(in: scalars, at: index) else { return nil }
        if lead < 0x80 {
            // Tab and line ends stay as written: a reader of an escaped `%0A` sees no break.
            guard lead >= 0x20 || isControl(Unicode.Scalar(lead)) else { return nil }
            return (Unicode.Scalar(lead), afterLead - index)
        }
        // The bytes of one UTF-8 sequence, each percent-encoded; any other byte over 0x7F is
        // no character a reader sees, and is left as written.
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return nil
        }
        var bytes = [lead]
        var next = afterLead
        while bytes.count < length {
            guard next < scalars.count, scalars[next] == "%", let (byte, after) = percentEncodedByte(in: scalars, at: next) else {
                return nil
            }
            bytes.append(byte)
            next = after
        }
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator), iterator.next() == nil else { return nil }
        return (scalar, next - index)
    }

    /// The byte a `%` at `index` and the two hex digits after it stand for, through any `%25`s
    /// in front of them (each the `%` of the escape after it), and where its escape ends.
    private static func percentEncodedByte(in scalars: [Unicode.Scalar], at index: Int) -> (UInt8, Int)? {
        var digits = index + 1
        func hexPair(at position: Int) -> UInt8? {
            guard position + 1 < scalars.count, let high = hexDigit(scalars[position]), let low = hexDigit(scalars[position + 1])
            else { return nil }
            return UInt8(high << 4 | low)
        }
        while hexPair(at: digits) == 0x25, hexPair(at: digits + 2) != nil { digits += 2 }
        guard let byte = hexPair(at: digits) else { return nil }
        return (byte, digits + 2)
    }

    /// An HTML character reference at the `&` at `index`: a numeric one (`&#64;`, `&#x40;`, also
    /// without its `;`, as browsers read it), or one of the names HTML gives `@`, `+`, `.` and the
    /// spaces and dashes between digit groups (`&nbsp;`, `&ndash;`);
    /// through any `&amp;`s in front of it, as a page quoting a page writes it (`&amp;#64;`: the
    /// `&amp;` is the `&` of the reference after it).
    private static func characterReference(in scalars: [Unicode.Scalar], at index: Int) -> (Unicode.Scalar, Int)? {
        var next = index + 1
        while scalars[next...].starts(with: "amp;".unicodeScalars) { next += 4 }
        guard next < scalars.count else { return nil }
        if scalars[next] == "#" {
            next += 1
            let hex = next < scalars.count && (scalars[next] == "x" || scalars[next] == "X")
            if hex { next += 1 }
            // Leading zeros, as many as there are, as browsers read them (`&#000000064;`).
            var zeros = 0
            while next < scalars.count, scalars[next] == "0" {
                zeros += 1
                next += 1
            }
            var number: UInt32 = 0
            var digits = 0
            while next < scalars.count, let digit = hex ? hexDigit(scalars[next]) : decimalDigit(scalars[next]), digits < 8 {
                number = number * (hex ? 16 : 10) + digit
                digits += 1
                next += 1
            }
            guard digits + zeros > 0, let read = Unicode.Scalar(number) else { return nil }
            if next < scalars.count, scalars[next] == ";" { next += 1 }
            return (read, next - index)
        }
        // And those of the spaces and dashes that split a number's digit groups.
        let names: [(String, Unicode.Scalar)] = [
            ("commat;", "@"), ("plus;", "+"), ("period;", "."), ("nbsp;", "\u{00A0}"), ("thinsp;", "\u{2009}"),
            ("ensp;", "\u{2002}"), ("ndash;", "\u{2013}"), ("hyphen;", "\u{2010}"), ("minus;", "\u{2212}"), ("middot;", "\u{00B7}"),
            ("bull;", "\u{2022}"),
        ]
        for (name, read) in names where scalars[next...].starts(with: name.unicodeScalars) {
            return (read, 1 + name.unicodeScalars.count)
        }
        return nil
    }

    /// A string literal's escape at the backslash at `index`: `\u0040` (JSON, JavaScript, Java),
    /// `\U00000040` (Python, C), `\x40`, `\u{40}` or `\@`; through any backslashes in front of it, as a JSON
    /// document held in a JSON string writes it (`\\u0040`: Identity Platform's `rawUserInfo`).
    /// A JSON report escapes a control character so (`jane\u0000@…`), and the address reads on.
    private static func backslashEscape(in scalars: [Unicode.Scalar], at index: Int) -> (Unicode.Scalar, Int)? {
        var letter = index
        while letter < scalars.count, scalars[letter] == "\\" { letter += 1 }
        guard letter < scalars.count else { return nil }
        // An escaped `@` (Perl strings, shells, regular expressions).
        if scalars[letter] == "@" { return ("@", letter + 1 - index) }
        // Braced, as Swift, Rust and JavaScript write any scalar (`\u{40}`).
        if scalars[letter] == "u", letter + 1 < scalars.count, scalars[letter + 1] == "{" {
            var value: UInt32 = 0
            var position = letter + 2
            while position < scalars.count, position - letter - 2 < 8, let digit = hexDigit(scalars[position]) {
                value = value << 4 | digit
                position += 1
            }
            guard position > letter + 2, position < scalars.count, scalars[position] == "}", let scalar = Unicode.Scalar(value) else {
                return nil
            }
            return (scalar, position + 1 - index)
        }
        let digits =
            switch scalars[letter] {
            case "u": 4
            case "U": 8
            case "x": 2
            default: 0
            }
        guard digits > 0, letter + digits < scalars.count else { return nil }
        var value: UInt32 = 0
        for position in (letter + 1)...(letter + digits) {
            guard let digit = hexDigit(scalars[position]) else { return nil }
            value = value << 4 | digit
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, letter + digits + 1 - index)
    }

    private static func decimalDigit(_ scalar: Unicode.Scalar) -> UInt32? {
        ("0"..."9").contains(scalar) ? scalar.value - 0x30 : nil
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
