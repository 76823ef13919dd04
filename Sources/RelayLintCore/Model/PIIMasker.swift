/// Masks email addresses and phone numbers in report text, so a report can be forwarded beyond
/// the people allowed to see users' addresses (contract §6).
///
/// Addresses and numbers are found wherever they stand in a value (`from: "jane@example.com
/// (Jane)"`, `call +1 415 555 0188`, `mail JOHN+tag@Example.COM, ok`), and only they are replaced:
/// the text around them stays. Ids, dates, times, versions, IP addresses and hashes are not
/// phone numbers (see `phoneNumber(in:from:)` for how they are told apart).
public struct PIIMasker: Sendable {
    /// When false, values pass through unchanged (`--show-pii`).
    public var isEnabled: Bool

    public init(isEnabled: Bool = true) { self.isEnabled = isEnabled }

    /// Masks every email address and phone number in a value; the rest is returned as it is.
    public func mask(_ value: String) -> String { maskText(value) }

    /// Masks a subject id as contract §6 asks: printed as it is, unless the id is itself an
    /// email address or a phone number, which is masked like one. An address inside an id
    /// (`auth0|jane@example.com`) is masked too, as every address in a report is, and so is a
    /// number a label or a line break sets apart in it, and one a separator sets apart that is
    /// written with its `+` (or `00` after `|`) or follows a word that names a phone number
    /// (`tel:+14155550100`, `phone=+1…`, `phone: 0612345678`, `auth0|+1…`, `phone/0612…`,
    /// `phone +1…`, a second line); digits that are part of an id are not taken for a phone number
    /// (`20260115-000123`, `uid+12345678901`, `acct 555 0100 22`, `tenant:0612345678`,
    /// `orders/0123456789`): a reviewer must find the account by the id the
    /// report prints. A control character is read both ways, as `maskText` reads it
    /// (`jane\u{7F}@example.com` shows as an address).
    func maskSubjectID(_ id: String) -> String {
        guard isEnabled, Self.mayHoldPII(id) else { return id }
        let (original, masks) = Self.masks(inText: id)
        // Where the id's own text starts and ends, spaces around it aside.
        let start = original.prefix { $0 == " " }.count
        let end = original.count - original.reversed().prefix { $0 == " " }.count
        // An international number (`+…`, `00…`, `(…`): a national one in one run joined to an
        // id (`tenant:0612345678`, `orders/0123456789`) is read as the id's digits unless a label
        // names it (`phone=0612345678`, `tel:0612…`).
        func isInternational(_ index: Int) -> Bool {
            original[index] == "+" || original[index] == "("
                || (original[index] == "0" && original.indices.contains(index + 1) && original[index + 1] == "0")
        }
        // A line break before any number; a label's or a path's separator before an
        // international one, as a space or `_` before its `+`, or before any number after a word
        // that names one (`phone/0612345678`, `tel|0612…`).
        func setsApart(_ index: Int) -> Bool {
            guard original.indices.contains(index) else { return false }
            let scalar = original[index]
            if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" { return true }
            guard original.indices.contains(index + 1) else { return false }
            if ":=|/".unicodeScalars.contains(scalar) {
                return isInternational(index + 1) || Self.wordBeforeNamesPhoneNumber(original, at: index)
            }
            return (scalar == " " || scalar == "_") && original[index + 1] == "+"
        }
        func endsWord(_ index: Int) -> Bool {
            !original.indices.contains(index) || !Self.isWordScalar(original[index])
        }
        // A number the id starts with, words after it (`+14155550199 (mobile)`, `+14155550188.`,
        // `(415) 555-0177 home`): nothing before it to set it apart, it is set apart by being
        // the first word, whatever comes before it that is no letter or digit (`\u{A0}+1…`,
        // `'+1…'`, `[+1…] old`, `<+1…>`). Written with its `+`; or with `00` or an area code in
        // parentheses and ten digits or more, a whole national or international number
        // (`0044 20 7946 0958`, `(0161) 496 0000`, `(11) 91234-5678`): fewer are an id's
        // (`0012345 old`), and an id of ten such digits is masked as the number it reads as.
        func startsID(_ number: Range<Int>) -> Bool {
            guard original.indices.contains(number.lowerBound), original[..<number.lowerBound].allSatisfy({ !Self.isWordScalar($0) })
            else { return false }
            let first = original[number.lowerBound]
            if first == "+" { return true }
            let digits = original[number].count { $0.properties.numericType != nil }
            if first == "0", original.indices.contains(number.lowerBound + 1), original[number.lowerBound + 1] == "0" {
                return digits >= 10
            }
            guard first == "(" else { return false }
            // An area code of four digits but for a trunk 0 is a year's (`(2026) 000123 v2`).
            let areaCode = original[(number.lowerBound + 1)...].prefix { $0.properties.numericType != nil }
            if areaCode.count == 4, areaCode.first != "0" { return false }
            return digits >= 7
        }
        let kept = masks.filter { mask in
            mask.replacement.contains("@") || (mask.range.lowerBound <= start && mask.range.upperBound >= end)
                // A number the id starts with is one whatever follows it, as free text reads it:
                // `+14155550199x` was printed whole as a subject, and masked in an event id
                // made of it (`r-+1••••••••99x`) in the same report (audit 9, F2).
                || startsID(mask.range)
                || ((setsApart(mask.range.lowerBound - 1) || Self.phoneLabel(original, numberAt: mask.range.lowerBound) != nil)
                    && endsWord(mask.range.upperBound))
        }
        return kept.isEmpty ? id : Self.text(original, with: kept)
    }

    /// Whether `scalar` is part of a word: a letter or a digit of any script.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// A text with each whole `id` in it masked as a subject id (`maskSubjectID`) and the rest
    /// as free text: a finding's message names its subject, which free-text masking would cut
    /// into where the id holds digits (`acct-0612345678` is an id, printed as it is). An
    /// occurrence of the id inside a longer address or number is part of that, which is masked
    /// whole (`jdoe` in `jdoe@example.com`, `41` in `+1 415 555 0199`): cut at the id, the
    /// address was masked in pieces that no longer read as one, and shown.
    func maskText(_ text: String, keepingSubjectID id: String) -> String {
        guard isEnabled, Self.mayHoldPII(text) else { return text }
        guard !id.isEmpty else { return maskText(text) }
        let (original, freeText) = Self.masks(inText: text)
        let idScalars = Array(id.unicodeScalars)
        let shownID = Array(maskSubjectID(id).unicodeScalars)
        let search = ScalarSearch(idScalars)
        var masks: [Mask] = []
        var next = 0
        var index = 0
        while let found = search.firstOccurrence(in: original, from: index) {
            let occurrence = found..<(found + idScalars.count)
            // Free-text masks before it are kept as they are.
            while next < freeText.count, freeText[next].range.upperBound <= occurrence.lowerBound {
                masks.append(freeText[next])
                next += 1
            }
            let overlapping = freeText[next...].prefix { $0.range.lowerBound < occurrence.upperBound }
            if overlapping.contains(where: { $0.range.lowerBound < occurrence.lowerBound || $0.range.upperBound > occurrence.upperBound }) {
                // Part of a longer address or number: masked as that.
                masks += overlapping
                next += overlapping.count
                index = masks.last!.range.upperBound
                continue
            }
            next += overlapping.count
            masks.append((occurrence, shownID))
            index = occurrence.upperBound
        }
        masks += freeText[next...]
        return masks.isEmpty ? text : Self.text(original, with: masks)
    }

    /// Where a subject id stands in a text, found in time linear in the text (Knuth, Morris and
    /// Pratt): compared at every place, an id of 1,000 scalars in an event id of megabytes that
    /// almost held it at each place took seconds a finding.
    struct ScalarSearch {
        let pattern: [Unicode.Scalar]
        /// By position in the pattern: the length of its longest proper prefix that ends there.
        private let fallback: [Int]

        init(_ pattern: [Unicode.Scalar]) {
            self.pattern = pattern
            var fallback = [Int](repeating: 0, count: pattern.count)
            var length = 0
            for position in pattern.indices.dropFirst() {
                while length > 0, pattern[position] != pattern[length] { length = fallback[length - 1] }
                if pattern[position] == pattern[length] { length += 1 }
                fallback[position] = length
            }
            self.fallback = fallback
        }

        /// The first place at or after `start` where `text` holds the pattern whole.
        func firstOccurrence(in text: [Unicode.Scalar], from start: Int) -> Int? {
            guard !pattern.isEmpty else { return nil }
            var matched = 0
            var index = start
            while index < text.count {
                while matched > 0, text[index] != pattern[matched] { matched = fallback[matched - 1] }
                if text[index] == pattern[matched] { matched += 1 }
                if matched == pattern.count { return index + 1 - pattern.count }
                index += 1
            }
            return nil
        }
    }

    /// What `maskText` masks in `text`: its scalars as written, and the stretches in order.
    private static func masks(inText text: String) -> (original: [Unicode.Scalar], masks: [Mask]) {
        let separated = FoldedText(text, controls: .separating)
        var masks = Self.masks(in: separated)
        // Without a control character (written, or as a reference) both readings are one. With
        // one, what either reading finds on the text is masked: masking one reading's result
        // again hid the local part from the other (`jane\u{1}d•••@`).
        if separated.heldControlCharacter {
            masks = Self.union(masks, Self.masks(in: FoldedText(text, controls: .leftOut), besides: masks))
        }
        return (separated.original, masks)
    }

    /// Masks a value known to be a phone number (a phone field), whatever its format: a number
    /// written `0612345678` does not look like one to `mask(_:)`.
    public func maskPhoneField(_ value: String) -> String {
        guard isEnabled else { return value }
        let masked = maskText(value)
        guard masked == value else { return masked }
        let digits = value.filter { $0.isASCII && $0.isNumber }
        guard digits.count >= 4 else { return value }
        return String(repeating: "•", count: digits.count - 2) + String(digits.suffix(2))
    }

    /// Masks every email address and phone number that stands in free text, as a reader sees
    /// it (`FoldedText`): an address spelled with an invisible character, a fullwidth at sign or
    /// an HTML escape is masked as the address it reads as. A control character is read both
    /// ways, as nothing and as a break: what either reading finds is masked.
    public func maskText(_ text: String) -> String {
        guard isEnabled, Self.mayHoldPII(text) else { return text }
        let (original, masks) = Self.masks(inText: text)
        return masks.isEmpty ? text : Self.text(original, with: masks)
    }

    /// The text `original` with the stretches `masks` replaced. The text between them is copied
    /// as it was written; as UTF-8, once (a scalar view appended to a piece at a time took
    /// seconds for a value of a megabyte).
    private static func text(_ original: [Unicode.Scalar], with masks: [Mask]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(original.count)
        func append(_ scalars: some Sequence<Unicode.Scalar>) {
            for scalar in scalars { UTF8.encode(scalar) { output.append($0) } }
        }
        var copied = 0
        for mask in masks {
            append(original[copied..<mask.range.lowerBound])
            append(mask.replacement)
            copied = mask.range.upperBound
        }
        append(original[copied...])
        return String(decoding: output, as: UTF8.self)
    }

    /// A stretch of the text as written (its scalars) and what it is shown as.
    private typealias Mask = (range: Range<Int>, replacement: [Unicode.Scalar])

    /// What to mask in one reading of a text, in order, as stretches of the text as written.
    private static func masks(in folded: FoldedText) -> [Mask] {
        let scalars = folded.scalars
        var masks: [Mask] = []
        var index = 0
        // How far the text is masked, in `scalars`.
        var masked = 0
        while index < scalars.count {
            // An address right after another (`a@x.com|jane@example.com`) may reach back into
            // it: it starts where the one before ended, rather than not being masked at all.
            if scalars[index] == "@",
                let found = email(
                    in: scalars, at: index, domainEndsBefore: folded.afterLeftOutControl,
                    localPartStartsAfter: folded.afterLeftOutLineBreak),
                max(found.start, masked) < index
            {
                let start = max(found.start, masked)
                var replacement = [scalars[start], "•", "•", "•"]
                folded.appendWritten(index..<found.end, to: &replacement)
                masks.append((folded.start(of: start)..<folded.end(of: found.end - 1), replacement))
                masked = found.end
                index = found.end
                continue
            }
            if index >= masked, let phone = phoneNumber(in: scalars, from: index) {
                let replacement = Array(maskedPhone(scalars[index..<phone]).unicodeScalars)
                masks.append((folded.start(of: index)..<folded.end(of: phone - 1), replacement))
                masked = phone
                index = phone
                continue
            }
            index += 1
        }
        return masks
    }

    /// What the reading with control characters left out finds besides what the separated
    /// reading found (`separated`): a number it finds over one the separated reading found is
    /// left out, as its digits ran on past a break into the next line's (`+1 415 555 0199\n42
    /// retries`, a date on the next line); an address is kept, the longer shown (`union`).
    private static func masks(in leftOut: FoldedText, besides separated: [Mask]) -> [Mask] {
        masks(in: leftOut).filter { mask in
            mask.replacement.contains("@")
                || !separated.contains { $0.range.overlaps(mask.range) }
        }
    }

    /// The masks of two readings of one text, as one list in order: a stretch either masks is
    /// masked; of two that overlap, the longer is shown, and what the other adds is hidden.
    private static func union(_ first: [Mask], _ second: [Mask]) -> [Mask] {
        let all = (first + second).sorted { ($0.range.lowerBound, -$0.range.count) < ($1.range.lowerBound, -$1.range.count) }
        var merged: [Mask] = []
        for mask in all {
            guard let last = merged.last, mask.range.lowerBound < last.range.upperBound else {
                merged.append(mask)
                continue
            }
            if mask.range.upperBound > last.range.upperBound {
                merged[merged.count - 1] = (last.range.lowerBound..<mask.range.upperBound, last.replacement + ["•", "•", "•"])
            }
        }
        return merged
    }

    /// A quick look at the bytes, for the ids most values are: an address needs an `@` (or an
    /// escape of one, `%40`, `&#64;` or `\u0040`), a phone number at least 7 digits; any other script may
    /// spell either (`＠`, `٠٦١٢`).
    static func mayHoldPII(_ text: String) -> Bool {
        var digits = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "@") || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "\\")
                || byte >= 0x80
            {
                return true
            }
            if (0x30...0x39).contains(byte) {
                digits += 1
                if digits >= 7 { return true }
            }
        }
        return false
    }

    // MARK: Email addresses

    /// The address around the `@` at `at`: its first scalar and the end of its domain, or nil.
    /// The local part is what RFC 5322 allows unquoted, less `/` (a URL's) and an apostrophe
    /// that opens a quote (`'jane@…'`); the domain is labels of letters, digits, hyphens and
    /// underscores: one name of letters and hyphens (`jane@localhost`), names joined by dots
    /// ending in one of letters (`pkg@1.2.3` is a version), or an IPv4 address (`jane@10.0.0.1`).
    /// Where control characters were left out, the domain ends at one (`breaks`), and the local
    /// part at a line break (`lineBreaks`) unless it stands right before the `@`.
    static func email(
        in scalars: [Unicode.Scalar], at: Int, domainEndsBefore breaks: Set<Int> = [], localPartStartsAfter lineBreaks: Set<Int> = []
    ) -> (start: Int, end: Int)? {
        // An `@` set apart by a no-break space on either side or both (`jane.doe\u{A0}@\u{A0}
        // example.com`, as a word processor keeps an address on one line) is the address a reader
        // sees, when its domain has a dot. An ordinary space is not: `refused @ api.example.com`
        // and `thanks @john.smith` are log text and mentions.
        let spaceBefore = at >= 2 && isSpaceAroundAt(scalars[at - 1]) && isLocalPart(scalars[at - 2])
        let spaceAfter = at + 2 < scalars.count && isSpaceAroundAt(scalars[at + 1]) && isDomain(scalars[at + 2])
        let spaced = spaceBefore || spaceAfter
        let localEnd = spaceBefore ? at - 1 : at
        let domainStart = spaceAfter ? at + 2 : at + 1
        var start = localEnd
        // A quoted local part (`"john q"@example.com`), which RFC 5322 allows: from its quote.
        if localEnd >= 3, scalars[localEnd - 1] == "\"",
            let open = scalars[..<(localEnd - 1)].lastIndex(where: { $0 == "\"" || $0 == "\n" }), scalars[open] == "\"",
            open < localEnd - 2
        {
            start = open
        }
        let quoted = start < localEnd
        var tookComment = false
        while !quoted, start > 0 {
            let before = scalars[start - 1]
            // An apostrophe inside a name (`o'brien@`) is part of it; one that opens a quote
            // (`'jane@example.com'`) is not.
            let innerApostrophe = before == "'" && start >= 2 && isLocalPart(scalars[start - 2]) && isLocalPart(scalars[start])
            // A comment, which RFC 5322 allows after a local part (`jane(work)@`, `jane (work)@`,
            // `"jane"(work)@`), of at most 64 characters, as a local part is.
            if before == ")", start >= 2,
                let open = scalars[max(0, start - 66)..<(start - 1)].lastIndex(where: { "()\n".unicodeScalars.contains($0) }),
                scalars[open] == "("
            {
                var word = open
                while word > 0, word > open - 3, scalars[word - 1] == " " { word -= 1 }
                if word >= 3, scalars[word - 1] == "\"",
                    let quote = scalars[max(0, word - 66)..<(word - 1)].lastIndex(where: { $0 == "\"" || $0 == "\n" }),
                    scalars[quote] == "\"", quote < word - 2
                {
                    start = quote
                    tookComment = true
                    break
                }
                // A call's parentheses (`retry(3)@worker`) are no comment: what stands before them
                // must be a local part, and the domain a name with a dot.
                guard word > 0, isLocalPart(scalars[word - 1]) else { break }
                start = word
                tookComment = true
                continue
            }
            guard isLocalPart(before) || innerApostrophe, start == localEnd || !lineBreaks.contains(start) else { break }
            start -= 1
        }
        while start < localEnd, scalars[start] == "." { start += 1 }
        guard start < localEnd else { return nil }
        // An address literal (`jane@[10.0.0.1]`, `jane@[IPv6:2001:db8::1]`) ends at its bracket.
        if domainStart < scalars.count, scalars[domainStart] == "[",
            let close = scalars[(domainStart + 1)...].firstIndex(where: { !(isASCIIAlphanumeric($0) || ".:".unicodeScalars.contains($0)) }),
            scalars[close] == "]", close > domainStart + 1
        {
            return (start, close + 1)
        }
        var end = domainStart
        while end < scalars.count, isDomain(scalars[end]), end == domainStart || !breaks.contains(end) { end += 1 }
        // A sentence's full stop or a dash after the address is not part of it.
        while end > domainStart, scalars[end - 1] == "." || scalars[end - 1] == "-" { end -= 1 }
        let domain = scalars[domainStart..<end]
        guard let first = domain.first, first != "." else { return nil }
        guard let dot = domain.lastIndex(of: ".") else {
            // A host name alone, as mail inside a network is addressed (`jane@localhost`): a word
            // of letters and hyphens. One with a digit is a version or a tag (`node@18`,
            // `job@v2`, `worker@queue-3`).
            let hostName = first != "-" && domain.allSatisfy { isLetter($0) || $0 == "-" }
            return hostName && !tookComment && !spaced ? (start, end) : nil
        }
        let topLevel = domain[(dot + 1)...]
        // A top-level domain is letters, or punycode for one (`xn--p1ai` is `.рф`).
        let punycode = topLevel.starts(with: "xn--".unicodeScalars) && topLevel.allSatisfy { isASCIIAlphanumeric($0) || $0 == "-" }
        let letters = topLevel.first.map { $0.properties.isAlphabetic } == true && topLevel.allSatisfy(isLetter)
        if letters || punycode || isIPv4Address(domain) { return (start, end) }
        // An address an id's suffix is glued to (`jane@example.com_1767225600`, `…com-1`,
        // `…com.2`, `…com2026`) ends where the letters of its top-level domain do.
        var cut = end
        while let dot = scalars[domainStart..<cut].lastIndex(of: "."), dot > domainStart {
            let label = scalars[(dot + 1)..<cut]
            let topLevel = label.prefix { isASCIILetter($0) }
            if topLevel.count >= 2 { return (start, dot + 1 + topLevel.count) }
            cut = dot
        }
        return nil
    }

    /// A letter, or a mark that is part of the letter before it: scripts such as Tamil write
    /// vowel signs and viramas as marks (`.இந்தியா`), which are not alphabetic.
    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: scalar.properties.isAlphabetic
        }
    }

    /// Four numbers of at most three digits, each at most 255, joined by dots: three are a
    /// version (`pkg@1.2.3`).
    private static func isIPv4Address(_ domain: ArraySlice<Unicode.Scalar>) -> Bool {
        let parts = domain.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                (1...3).contains(part.count) && part.allSatisfy(isDigit) && Int(String(String.UnicodeScalarView(part)))! <= 255
            }
    }

    /// A no-break space (also the narrow one), which may stand on either side of an `@`.
    private static func isSpaceAroundAt(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\u{00A0}" || scalar == "\u{202F}"
    }

    private static func isLocalPart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            // `{`, `|` and `}` are RFC 5322's too: left out, `mary{x}@` showed `mary{x}`. A `/`
            // is too, but it is a URL's far more often (`medium.com/@jane`), and stops the scan.
            return isASCIIAlphanumeric(scalar) || "._%+-!#$&*=?^`~{|}".unicodeScalars.contains(scalar)
        }
        // Combining marks are part of the letter before them (`jane\u{301}@`, a decomposed `é`).
        return isLetter(scalar) || scalar.properties.numericType != nil
    }

    private static func isDomain(_ scalar: Unicode.Scalar) -> Bool {
        // `_` is no hostname's, but DNS names and typed addresses hold it (`jane@my_host.example.com`).
        if scalar.isASCII { return isASCIIAlphanumeric(scalar) || scalar == "." || scalar == "-" || scalar == "_" }
        return isLocalPart(scalar)
    }

    // MARK: Phone numbers

    /// The end of a phone number that starts at `start`, or nil.
    ///
    /// A number is groups of ASCII digits, each separated by one space, `-` or `.`, perhaps with
    /// a `+` in front and an area code in parentheses, standing alone: neither a letter, a digit
    /// nor a character that joins words into ids (`_-./:@#&=`, but for a `+`) stands right before it, and
    /// neither a letter, a digit nor `:`, `/` or `_` right after (a national number in one run
    /// excepted, below). It is a phone number when it
    /// has 7 to 15 digits and
    /// - starts with `+` or `00`, or has a parenthesised area code;
    /// - or is one run of 10 or 11 digits starting with `0` (`0612345678`), whole whatever
    ///   follows but a letter, a digit, an `_` or an `@`, also after `=`, `/`, `:` or a word's `.`; a longer or
    ///   shorter run, or one not starting with 0, is an id or a time (`1767225600000`);
    /// - or is split by `-` into groups (at least 7 digits) or by spaces (at least 8), and is
    ///   not a date (`2026-01-15`, `15-01-2026`; `0475 12 34 56` starts with a trunk 0, which no
    ///   year does but the first thousand, `0001-01-01`);
    /// - or is split by dots as `415.555.0199` is, or in pairs after a trunk 0 (`06.12.34.56.78`)
    ///   (a version or an IP address is not);
    /// - or has a slash after a trunk 0 and an area code (`0171/1234567`), or is a North
    ///   American number after its country code 1, or a Russian mobile after the trunk 8, written
    ///   apart (`1-415-555-0100`, `8 912 345-67-89`), or an Indian mobile after its trunk 0 in
    ///   two groups of five (`098765 43210`);
    /// - or follows a label that names a phone number (`phone=4155550100`, `PIIMasker+PhoneLabels`).
    static func phoneNumber(in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        let first = scalars[start]
        guard first == "+" || first == "(" || isDigit(first) else { return nil }
        if start > 0 {
            let before = scalars[start - 1]
            // After a letter, a `+` and digits are part of a word: a version's build
            // (`1.0.0-beta+20130313144700`), an id (`tenant+123456789`), a query (`q=a+1234567890`).
            // But a number joined by its `+` to a word that names one is one (`phone+14155550404`),
            // as is one joined to a word of another script than Latin's ASCII (`핸드폰+8210…`):
            // ids, versions and queries are ASCII.
            // A `+` doubled at a word's start (`++14155550208`, a slip) leaves the number one.
            let joinedPlus = before == "+" && start >= 2 && isWordScalar(scalars[start - 2])
            if isASCIIAlphanumeric(before) || before.properties.isAlphabetic || before == "•" || joinedPlus,
                !(first == "+" && (isNonASCIIWordBeforeNumber(scalars, plusAt: start) || wordBeforeNamesPhoneNumber(scalars, at: start)))
            {
                return nil
            }
            // An E.164 number may follow an id's `_` (`phone_+14155550100`); other digits after
            // one are the id's.
            if before == "_" && compactInternationalNumberEnd(in: scalars, plusAt: start) == nil { return nil }
            // `phone:+1…` and `tel:0612…` are numbers; `12:34`, `v1.2`, `a-1`, `#12` and `x=12` are not, but
            // a national number in one run is, after a query's `=`, in a path, after a colon or
            // after a word's dot (`?to=0612345678`, `/users/0612345678/`, `Tel.0612345678`; after
            // a digit's dot it is a fraction's digits).
            let joinsNationalNumber =
                "=/:".unicodeScalars.contains(before) || (before == "." && start >= 2 && isLetter(scalars[start - 2]))
            if first != "+" && "-./:@#&=\\".unicodeScalars.contains(before) && phoneLabel(scalars, numberAt: start) == nil
                && !(joinsNationalNumber && trunkNumberRunEnd(scalars, from: start) != nil)
            {
                return nil
            }
        }
        // A national number in one run is whole: what follows it is something else
        // (`0612345678/verify`, `phone:0612345678:verified`), or another number
        // (`0612345678/0698765432`, `0612345678 0698765432`); read on, the two were one number
        // too long to be any. Not before an id's `_` or an address's `@`.
        if let runEnd = trunkNumberRunEnd(scalars, from: start), runEnd == scalars.count || !"_@".unicodeScalars.contains(scalars[runEnd]) {
            return runEnd
        }
        var groups: [Int] = []
        // Where each group ends, to cut a run of too many digits back to its first number.
        var groupEnds: [Int] = []
        var separators: Set<Unicode.Scalar> = []
        var hasParentheses = false
        var index = start
        if first == "+" { index += 1 }
        var end = index
        // Digits so far: past 15 the run is no phone number, whatever follows, and the scan
        // stops there (a value of `1 1 1 …` scanned to its end from each of its digits).
        var digitCount = 0
        while index < scalars.count, digitCount <= 15 {
            if scalars[index] == "(" && !hasParentheses {
                // `(415)` or `(0)`: digits up to a closing parenthesis; at the start, a country
                // code too, as the UK writes it (`(+44)7700900123`).
                let countryCode = index == start && index + 1 < scalars.count && scalars[index + 1] == "+"
                let digitsStart = index + (countryCode ? 2 : 1)
                var close = digitsStart
                while close < scalars.count, isDigit(scalars[close]) { close += 1 }
                guard close > digitsStart, close - digitsStart <= 5, close < scalars.count, scalars[close] == ")" else { break }
                groups.append(close - digitsStart)
                digitCount += close - digitsStart
                hasParentheses = true
                index = close + 1
                end = index
                if index < scalars.count, let separator = groupSeparator(scalars[index]), separator != "." {
                    separators.insert(separator)
                    index += 1
                }
                continue
            }
            guard isDigit(scalars[index]) else { break }
            var groupEnd = index
            while groupEnd < scalars.count, isDigit(scalars[groupEnd]) { groupEnd += 1 }
            groups.append(groupEnd - index)
            groupEnds.append(groupEnd)
            digitCount += groupEnd - index
            end = groupEnd
            index = groupEnd
            // An area code or trunk 0 right after the country code, as Europe writes them
            // (`+44(0)20 7946 0958`, `+49(89)12345678`): read with the parentheses above.
            // So after a trunk or country digit written alone (`8(912)3456789`, `0(532)1234567`).
            if index + 1 < scalars.count, scalars[index] == "(", !hasParentheses,
                first == "+" || (groups == [1] && "018".unicodeScalars.contains(first))
            {
                continue
            }
            // An international number may be split by `/` too (`+1/415/555/0188`), and a national
            // one after its area code with its trunk 0 (`0171/1234567`, `0475/12.34.56`) or in
            // pairs after it (`06/12/34/56/78`); a national one split so elsewhere is a date
            // (`01/02/2026`).
            let pairsSoFar = separators == ["/"] && groups.count < 5 && groups.allSatisfy { $0 == 2 }
            let slashes = first == "+" || (first == "0" && (groups.count == 1 && groups[0] >= 2 || pairsSoFar))
            // And an international one in short groups by `_` (`+1_415_555_0199`), as a name of a
            // file or a key writes it; a long run before one is a whole number an id's `_` follows.
            let underscores = first == "+" && groups.last! <= 4
            guard index + 1 < scalars.count,
                var separator = groupSeparator(scalars[index]) ?? (slashes && scalars[index] == "/" ? "/" : nil)
                    ?? (underscores && scalars[index] == "_" ? "_" : nil)
            else { break }
            var next = index + 1
            // A hyphen with a space on each side (`+1 - 415 - 555 - 0199`) is a hyphen.
            if separator == " ", next + 1 < scalars.count, groupSeparator(scalars[next]) == "-", scalars[next + 1] == " " {
                separator = "-"
                next += 2
            }
            // A doubled space, as text aligned by hand has (`+1  415  555  0188`).
            if separator == " ", next < scalars.count, groupSeparator(scalars[next]) == " " { next += 1 }
            guard next < scalars.count, isDigit(scalars[next]) || scalars[next] == "(" else { break }
            separators.insert(separator)
            index = next
        }
        // Two numbers in groups after a trunk 0 or the `00` of an international call, apart by a
        // space (`06 12 34 56 78 06 98 76 54 32`, `0049 151 1234 5678 0049 …`), read on as one:
        // too many digits for any, so the scan from a later group found the rest and the first
        // digits were shown. Cut where the second starts: the first group from 10 digits on that
        // starts as the first did, with `00` or with a trunk 0 alone (`0044 20 7946 0958 0044 …`:
        // the `0958` is the first's).
        let startsWithAccessCode = start + 1 < scalars.count && scalars[start + 1] == "0"
        if digitCount > 15, first == "0", !hasParentheses, separators == [" "],
            let count = groups.indices.dropLast().first(where: { index in
                let next = groupEnds[index + 1] - groups[index + 1]
                let startsAlike = scalars[next] == "0" && (groups[index + 1] > 1 && scalars[next + 1] == "0") == startsWithAccessCode
                return (10...15).contains(groups[...index].reduce(0, +)) && startsAlike
            }),
            groups[...count].allSatisfy({ $0 >= 2 })
        {
            groups.removeSubrange((count + 1)...)
            end = groupEnds[count]
        }
        // An extension after an international number (`+14155550188x12`, `ext. 12`) is part of
        // it: masked with it, where the letter after the digits made it no number at all.
        var extensionEnd: Int? = nil
        if first == "+", end < scalars.count {
            var marker = end
            if scalars[marker] == " " { marker += 1 }
            let word = String(String.UnicodeScalarView(scalars[marker..<min(marker + 3, scalars.count)])).lowercased()
            let markerLength = word.hasPrefix("ext") ? 3 : word.hasPrefix("x") ? 1 : 0
            marker += markerLength
            if markerLength > 0 {
                if marker < scalars.count, scalars[marker] == "." { marker += 1 }
                if marker < scalars.count, scalars[marker] == " " { marker += 1 }
                var digitsEnd = marker
                while digitsEnd < scalars.count, isDigit(scalars[digitsEnd]), digitsEnd - marker < 6 { digitsEnd += 1 }
                let stands =
                    digitsEnd == scalars.count || !(isASCIIAlphanumeric(scalars[digitsEnd]) || scalars[digitsEnd].properties.isAlphabetic)
                if digitsEnd > marker, stands { extensionEnd = digitsEnd }
            }
        }
        if end < scalars.count, extensionEnd == nil, compactInternationalNumberEnd(in: scalars, plusAt: start) == nil {
            let after = scalars[end]
            // An international number may be followed by anything but a digit or an `@`
            // (`+44 20 7946 0958: delivered`, `…0958_work`), a letter too, as one in one run may
            // (`+44 20 7946 0958x` was shown whole where `+442079460958x` was masked: hostile
            // 16, F3); a national one not by a letter, nor by `_` or `/` or `:`, which an id, a
            // path or a time joins to it (`Jan 15 2026 10:30`; a national number in one run
            // before `:` is read whole above).
            let joins = first == "+" ? false : after == "_" || after == "/" || after == ":"
            let digit = ("0"..."9").contains(after)
            let letter = !digit && (isASCIIAlphanumeric(after) || after.properties.isAlphabetic)
            if digit || (letter && first != "+") || after == "@" || joins { return nil }
        }
        let digits = groups.reduce(0, +)
        guard (7...15).contains(digits), !groups.isEmpty else { return nil }
        // No country code starts with 0: `0000000001` is a zero-padded id.
        if first == "0", start + 2 < end, scalars[start + 1] == "0", scalars[start + 2] == "0" { return nil }
        // An id that starts with a day or a year (`20260115-000123`, `2026-000123`).
        if separators == ["-"], groups.count == 2, isDateOrYear(scalars[start..<(start + groups[0])]) { return nil }
        if let extensionEnd { return extensionEnd }
        if first == "+" || hasParentheses { return end }
        switch phoneLabel(scalars, numberAt: start) {
        case .uri: return end
        // A label names a number, but a value's shape may still say it is none: a date, a
        // version, a count (`"mobile": 7654321` users).
        case .label where !isDate(groups) && !(separators.contains(".") && groups.contains { $0 < 2 }) && (groups.count > 1 || digits >= 8):
            return end
        case .label, nil: break
        }
        if groups.count == 1 {
            let leadingZero = scalars[start] == "0"
            let international = leadingZero && start + 1 < end && scalars[start + 1] == "0"
            return leadingZero && (10...11).contains(digits) || international ? end : nil
        }
        if scalars[start] == "0" && scalars[start + 1] == "0" && digits >= 9 { return end }
        // A national number starts with its trunk 0 in much of the world; no year does, so
        // `0475 12 34 56` (Belgium) and `0664 12 34 567` (Austria) are not dates.
        let trunk = scalars[start] == "0"
        if isPrefixedNationalNumber(scalars, from: start, groups: groups, separators: separators) { return end }
        // Years before 1000 are written with a 0 too (`0001-01-01`, `0000-00-00` for none, which
        // a report may print): a trunk number is one whose month or day is none.
        let zeroYear = scalars[start..<(start + min(4, end - start))].allSatisfy { $0 == "0" }
        let trunkNumber = trunk && groups[0] == 4 && !zeroYear && !isMonthAndDay(scalars, yearAt: start)
        if (isDate(groups) && !trunkNumber) || separators == ["-"] && isYearRange(scalars[start..<end]) { return nil }
        let allPairsOrMore = groups.allSatisfy { $0 >= 2 }
        // After a trunk 0 and an area code, a slash (`0171/1234567`, `0475/12.34.56`).
        if separators.contains("/") { return allPairsOrMore && (9...12).contains(digits) ? end : nil }
        if separators == ["."] {
            // `415.555.0199`; after a trunk 0, pairs (`06.12.34.56.78`).
            // Spain's `612.34.56.78`, which no IPv4 address is.
            let spanish = (groups == [3, 2, 2, 2] || groups == [2, 3, 2, 2]) && !isIPv4Address(scalars[start..<end])
            return groups == [3, 3, 4] || spanish || (trunk && allPairsOrMore && (9...11).contains(digits)) ? end : nil
        }
        if separators.contains(".") { return nil }
        if separators.contains("-") { return digits >= 7 && allPairsOrMore ? end : nil }
        // A national number's area or mobile prefix is at most four digits, or five after its
        // trunk 0 (`07911 123456`, `01632 960123` in the UK).
        let longestPrefix = trunk ? 5 : 4
        // India's mobiles after their trunk 0, in two groups of five (`098765 43210`): they start
        // with 6 to 9.
        if trunk, groups == [6, 5], ("6"..."9").contains(scalars[start + 1]) { return end }
        return digits >= 8 && allPairsOrMore && groups.first! <= longestPrefix ? end : nil
    }

    /// A country code 1 before a North American number (`1-415-555-0100`, `1 4155550100`: an
    /// area code and an exchange that start with 2 to 9), or Russia's trunk 8 before a mobile
    /// number (`8 912 345-67-89`, `8 9123456789`), written apart from it. Not with dots: a
    /// version (`1.415.555.0100`) is written so.
    private static func isPrefixedNationalNumber(
        _ scalars: [Unicode.Scalar], from start: Int, groups: [Int], separators: Set<Unicode.Scalar>
    ) -> Bool {
        guard groups.count >= 2, groups[0] == 1, groups.reduce(0, +) == 11, !separators.contains("."),
            let areaCode = scalars[(start + 1)...].firstIndex(where: isDigit)
        else { return false }
        let rest = Array(groups.dropFirst())
        switch scalars[start] {
        case "1":
            guard rest == [3, 3, 4] || rest == [10], ("2"..."9").contains(scalars[areaCode]) else { return false }
            // The exchange: the fourth digit after the area code's first.
            let exchange = scalars[areaCode..<min(scalars.count, areaCode + 8)].filter(isDigit).dropFirst(3).first
            return exchange.map { ("2"..."9").contains($0) } == true
        case "8":
            return scalars[areaCode] == "9" && [[3, 3, 2, 2], [3, 3, 4], [3, 7], [10]].contains(rest)
        default:
            return false
        }
    }

    /// Where the number ends when the `+` at `plus` is followed by 8 to 15 digits in a row: an
    /// E.164 number as written without separators, a number whatever follows it
    /// (`+14155550123x`).
    private static func compactInternationalNumberEnd(in scalars: [Unicode.Scalar], plusAt plus: Int) -> Int? {
        guard scalars[plus] == "+" else { return nil }
        var end = plus + 1
        while end < scalars.count, isDigit(scalars[end]), end - plus <= 15 { end += 1 }
        return (8...15).contains(end - plus - 1) && (end == scalars.count || !isDigit(scalars[end])) ? end : nil
    }

    /// Whether the word right before the `+` at `plus` holds a letter of another script than
    /// ASCII's and the `+` starts an international number written whole, not a date
    /// (`핸드폰+821012345678`, `Straße+491701234567`; not `バージョン+20260101`).
    private static func isNonASCIIWordBeforeNumber(_ scalars: [Unicode.Scalar], plusAt plus: Int) -> Bool {
        var start = plus
        while start > 0, isLetter(scalars[start - 1]) { start -= 1 }
        guard scalars[start..<plus].contains(where: { !$0.isASCII }), let end = compactInternationalNumberEnd(in: scalars, plusAt: plus)
        else {
            return false
        }
        return !isDateOrYear(scalars[(plus + 1)..<end])
    }

    static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }

    /// The separator a scalar between two groups of digits stands for: a space (also the
    /// no-break and thin spaces locales format numbers with, `06 12 34 56 78` in French), a
    /// hyphen (also an en dash, or a dot set in the middle of the line) or a dot; nil for
    /// anything else.
    static func groupSeparator(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar {
        case " ", "\t", "\u{00A0}", "\u{202F}", "\u{2009}", "\u{2007}", "\u{2002}", "\u{3000}": " "
        // Also the dash a Japanese input method types (`090ー1234ー5678`) and its fullwidth one.
        case "-", "\u{2013}", "\u{2011}", "\u{2010}", "\u{2012}", "\u{2212}", "\u{30FC}", "\u{FF0D}": "-"
        // Dots set in the middle of the line (a middle dot, a bullet, the katakana middle dot): as
        // a hyphen, so that a date so written stays a date.
        case "\u{00B7}", "\u{2022}", "\u{30FB}", "\u{2027}", "\u{2219}": "-"
        case ".": "."
        default: nil
        }
    }

    /// Two years joined by a dash into a range, the earlier first (`2026-2027`, `1990–2025`), not
    /// a number; the same digits split by a space (`2050 1999`) may be a Danish number.
    private static func isYearRange(_ text: ArraySlice<Unicode.Scalar>) -> Bool {
        let years = String(String.UnicodeScalarView(text)).split { !$0.isASCII || !$0.isNumber }.compactMap { Int($0) }
        return years.count == 2 && years.allSatisfy { (1900...2100).contains($0) } && years[0] <= years[1]
    }

    /// Where a national number of 10 or 11 digits in one run that starts at `start` (a trunk 0,
    /// then no other 0) ends; nil when none starts there.
    private static func trunkNumberRunEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        guard scalars[start] == "0", start + 1 < scalars.count, scalars[start + 1] != "0" else { return nil }
        var end = start
        while end < scalars.count, isDigit(scalars[end]), end - start <= 11 { end += 1 }
        return (10...11).contains(end - start) && (end == scalars.count || !isASCIIAlphanumeric(scalars[end])) ? end : nil
    }

    /// Whether digits are a year from 1900 to 2100, or such a year's day written `YYYYMMDD`.
    private static func isDateOrYear(_ digits: ArraySlice<Unicode.Scalar>) -> Bool {
        let text = String(String.UnicodeScalarView(digits))
        guard let year = Int(text.prefix(4)), (1900...2100).contains(year) else { return false }
        if digits.count == 4 { return true }
        guard digits.count == 8, let month = Int(text.dropFirst(4).prefix(2)), let day = Int(text.suffix(2)) else { return false }
        return (1...12).contains(month) && (1...31).contains(day)
    }

    /// Whether the year of four digits at `start`, a separator, two digits, a separator and two
    /// digits are followed by a month and a day (`0001-01-01`, not `0475-12-34`).
    private static func isMonthAndDay(_ scalars: [Unicode.Scalar], yearAt start: Int) -> Bool {
        guard start + 10 <= scalars.count else { return false }
        func number(at index: Int) -> Int? { Int(String(String.UnicodeScalarView(scalars[index..<(index + 2)]))) }
        guard let month = number(at: start + 5), let day = number(at: start + 8) else { return false }
        return (1...12).contains(month) && (1...31).contains(day)
    }

    /// Year, month and day in either order, perhaps followed by an hour.
    private static func isDate(_ groups: [Int]) -> Bool {
        groups.starts(with: [4, 2, 2]) || groups.starts(with: [2, 2, 4])
    }

    /// `+1 415 555 0188` → `+1••••••••88`; a number without a country code keeps only its last
    /// two digits: `415-555-0199` → `••••••••99`.
    static func maskedPhone(_ number: ArraySlice<Unicode.Scalar>) -> String {
        let digits = number.filter(isDigit).map(Character.init)
        let tail = String(digits.suffix(2))
        if number.first == "+" {
            return "+" + String(digits[0]) + String(repeating: "•", count: digits.count - 3) + tail
        }
        return String(repeating: "•", count: digits.count - 2) + tail
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
