/// Words that say the number after them is a phone number: a `tel:` (RFC 3966) or `sms:`
/// (RFC 5724) URI's scheme, or a label such as `phone=`, `Mobile: `, `"phoneNumber":"`,
/// `user_phone=` or `Phone Number:`. A national number written as one run (`phone=4155550100`)
/// is otherwise taken for an id or a time.
extension PIIMasker {
    /// How a number is named.
    enum PhoneLabel {
        /// `tel:` or `sms:` right before it: a phone number whatever its digits.
        case uri
        /// A label and a `:` or `=`: a phone number unless its shape says otherwise (a date, a
        /// version, a count of seven digits).
        case label
    }

    /// The most characters of a label read, from its end: a long key is read by its last words
    /// (`customer_primary_contact_phone_number`).
    private static let longestLabel = 64
    /// The spaces read on either side of the `:` or `=`, as text aligned by hand has them
    /// (`Phone   : …`).
    private static let spacesAroundSeparator = 3

    /// The label before the number at `start`, if one names a phone number.
    static func phoneLabel(_ scalars: [Unicode.Scalar], numberAt start: Int) -> PhoneLabel? {
        var index = start
        // A quote, also escaped as JSON inside a string writes it (`{\"phone\":\"…`).
        func skipQuote() {
            guard index > 0, scalars[index - 1] == "\"" || scalars[index - 1] == "'" else { return }
            index -= 1
            if index > 0, scalars[index - 1] == "\\" { index -= 1 }
        }
        func skipSpaces() {
            var count = 0
            while index > 0, count < spacesAroundSeparator, groupSeparator(scalars[index - 1]) == " " {
                index -= 1
                count += 1
            }
        }
        skipQuote()
        skipSpaces()
        guard index > 0, scalars[index - 1] == ":" || scalars[index - 1] == "=" else { return nil }
        let isURI = scalars[index - 1] == ":" && index == start
        index -= 1
        skipSpaces()
        skipQuote()
        // An abbreviation's full stop (`tel.:`).
        if index > 0, scalars[index - 1] == "." { index -= 1 }
        let labelEnd = index
        // Letters, digits (`phone_e164`), `_`, `-`, and single spaces between words.
        while index > 0, labelEnd - index < longestLabel {
            let scalar = scalars[index - 1]
            let joinsWords = scalar == " " && index >= 2 && isASCIIAlphanumeric(scalars[index - 2])
            guard isASCIIAlphanumeric(scalar) || scalar == "_" || scalar == "-" || joinsWords else { break }
            index -= 1
        }
        var words = Self.words(of: scalars[index..<labelEnd])
        // A label cut by the length read may start inside a word: that word is not read.
        if labelEnd - index == longestLabel, !words.isEmpty { words.removeFirst() }
        guard var last = words.last else { return nil }
        if isURI && words.count == 1 && (last == "tel" || last == "sms") { return .uri }
        if words.count > 1, ["number", "no", "nr", "num", "e164"].contains(last) { last = words[words.count - 2] }
        return phoneLabels.contains(last) || phoneLabels.contains(words.joined()) ? .label : nil
    }

    /// The words of a label, lowercased: split at `_`, `-`, spaces and where a lowercase letter
    /// meets a capital (`userPhone`), but for a first word of one letter (`iPhone` is one word).
    private static func words(of label: ArraySlice<Unicode.Scalar>) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Unicode.Scalar? = nil
        for scalar in label {
            let separates = scalar == "_" || scalar == "-" || scalar == " "
            let camel =
                ("A"..."Z").contains(scalar) && previous.map { ("a"..."z").contains($0) } == true
                && !(words.isEmpty && current.unicodeScalars.count == 1)
            if separates || camel, !current.isEmpty {
                words.append(current.lowercased())
                current = ""
            }
            if !separates { current.unicodeScalars.append(scalar) }
            previous = scalar
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return words
    }

    /// Words that name a phone number, lowercased.
    private static let phoneLabels: Set<String> = [
        "tel", "sms", "phone", "phonenumber", "phoneno", "telephone", "telephonenumber", "mobile", "mobilenumber", "mobilephone", "cell",
        "cellphone", "cellnumber", "msisdn", "fax",
    ]
}
