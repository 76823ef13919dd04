/// Words that say the number after them is a phone number: a `tel:` (RFC 3966) or `sms:`
/// (RFC 5724) URI's scheme, or a label such as `phone=`, `Mobile: `, `"phoneNumber":"`,
/// `user_phone=` or `Phone Number:`. A national number written as one run (`phone=4155550100`)
/// is otherwise taken for an id or a time.
extension PIIMasker {
    /// How a number is named.
    enum PhoneLabel {
        /// `tel:`, `sms:` or `callto:` (Skype's scheme) right before it: a phone number whatever
        /// its digits.
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
        let beforeSpaces = index
        skipSpaces()
        var isURI = false
        if index > 0, ":=\u{FF1A}".unicodeScalars.contains(scalars[index - 1]) {
            isURI = scalars[index - 1] == ":" && index == start
            index -= 1
            skipSpaces()
            skipQuote()
        } else if index == beforeSpaces {
            // A label without `:` or `=` is followed by a space (`Phone 4155550100`).
            return nil
        }
        // `Phone #:`, and an abbreviation's full stop (`tel.:`, `Phone No. …`).
        if index > 0, scalars[index - 1] == "#" {
            index -= 1
            skipSpaces()
        }
        if index > 0, scalars[index - 1] == "." { index -= 1 }
        let labelEnd = index
        // Words (`isLabelWord`), `_`, `-`, and single spaces between words.
        while index > 0, labelEnd - index < longestLabel {
            let scalar = scalars[index - 1]
            let joinsWords = scalar == " " && index >= 2 && isLabelWord(scalars[index - 2])
            guard isLabelWord(scalar) || scalar == "_" || scalar == "-" || joinsWords else { break }
            index -= 1
        }
        var words = Self.words(of: scalars[index..<labelEnd])
        // A label cut by the length read may start inside a word: that word is not read.
        if labelEnd - index == longestLabel, !words.isEmpty { words.removeFirst() }
        if isURI && (words == ["tel"] || words == ["sms"] || words == ["callto"]) { return .uri }
        return wordsNamePhoneNumber(words) ? .label : nil
    }

    /// Whether the word right before `start` (letters of any script, digits, `_` and `-`) names a
    /// phone number (`phone+14155550404`, `sms+44…`, `телефон+7…`), as a label's words do.
    static func wordBeforeNamesPhoneNumber(_ scalars: [Unicode.Scalar], at start: Int) -> Bool {
        var index = start
        while index > 0, start - index < longestLabel, isLabelWord(scalars[index - 1]) || "_-".unicodeScalars.contains(scalars[index - 1]) {
            index -= 1
        }
        return index < start && namesPhoneNumber(String(String.UnicodeScalarView(scalars[index..<start])))
    }

    /// A scalar of a label's word: a letter of any script (`телефон`, `電話`) or a digit
    /// (`phone_e164`).
    private static func isLabelWord(_ scalar: Unicode.Scalar) -> Bool {
        isASCIIAlphanumeric(scalar) || (!scalar.isASCII && isLetter(scalar))
    }

    /// Whether a field's name says its value is a phone number (`phone`, `mobile`,
    /// `contact_phone`, `phoneNumber`, `msisdn`, `phone_e164`), as a label before a number does.
    static func namesPhoneNumber(_ field: String) -> Bool {
        field.unicodeScalars.count <= longestLabel && wordsNamePhoneNumber(words(of: ArraySlice(field.unicodeScalars)))
    }

    /// Whether a label's words (`words(of:)`) name a phone number: its last word, or the one
    /// before a last `number`, `no` or `e164`, or all of them run together (`PHONENUMBER`).
    private static func wordsNamePhoneNumber(_ words: [String]) -> Bool {
        guard var last = words.last else { return false }
        if words.count > 1, ["number", "no", "nr", "num", "e164"].contains(last) { last = words[words.count - 2] }
        // A numbered label (`phone1`, `phone2`).
        while let digit = last.unicodeScalars.last, isDigit(digit), last.unicodeScalars.count > 1 { last.removeLast() }
        return phoneLabels.contains(last) || phoneLabels.contains(words.joined())
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
        "cellphone", "cellnumber", "cellular", "msisdn", "fax", "ph", "mob", "whatsapp",
        // Other languages' words for one (German, Spanish, Portuguese, French, Russian, Chinese).
        "telefon", "telefono", "teléfono", "telefone", "celular", "handy", "tél", "téléphone", "portable", "телефон", "тел", "电话", "電話",
        "手机",
    ]
}
