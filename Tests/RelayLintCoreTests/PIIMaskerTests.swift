@testable import RelayLintCore
import Testing

@Suite struct PIIMaskerTests {
    /// A subject id is printed as it is unless it is itself an address or a phone number
    /// (contract §6); an address inside one is masked as every address is, digits inside one are
    /// not a phone number. In a message, the subject it names is masked the same way.
    @Test(arguments: [
        ("jane.doe@example.com", "j•••@example.com"), ("+14155550100", "+1••••••••00"), (" +1 415 555 0100 ", " +1••••••••00 "),
        ("auth0 jane@example.com", "auth0 j•••@example.com"), ("uid+12345678901", "uid+12345678901"),
        ("SKU+12345678A", "SKU+12345678A"), ("acct 555 0100 22", "acct 555 0100 22"), ("user_06 12 34 56 78", "user_06 12 34 56 78"),
        ("Yz4uJoHgkb7jjRw8CmnqbGSkbZ0z", "Yz4uJoHgkb7jjRw8CmnqbGSkbZ0z"),
        ("001437.b118536db5745779f7f31de0dd33b7e5.1204", "001437.b118536db5745779f7f31de0dd33b7e5.1204"),
        // A number a label or a line sets apart; an address a control character hides in.
        ("tel:+14155550124", "tel:+1••••••••24"), ("phone=+14155550128", "phone=+1••••••••28"),
        ("auth0|+14155550100", "auth0|+1••••••••00"), ("tenant/+14155550100", "tenant/+1••••••••00"),
        ("phone +14155550100", "phone +1••••••••00"),
        // A national number a label names, written as one run of digits.
        ("phone=0612345678", "phone=••••••••78"), ("phone: 4155550100", "phone: ••••••••00"),
        ("phone_+14155550100", "phone_+1••••••••00"), ("jane.doe@example.com_1767225600", "j•••@example.com_1767225600"),
        ("jane.doe@example.com\n+14155550126", "j•••@example.com\n+1••••••••26"), ("jane\u{7F}@example.com", "j•••@example.com"),
        ("jane\u{85}@example.com", "j•••@example.com"),
        // A national number in one run joined to an id is the id's digits, unless a label names it.
        ("tenant:0612345678", "tenant:0612345678"), ("orders/0123456789", "orders/0123456789"),
        ("isbn:0306406152", "isbn:0306406152"), ("tel:0612345678", "tel:••••••••78"), ("0612345678", "••••••••78"),
        ("auth0|0041791234567", "auth0|•••••••••••67"), ("phone/0612345678", "phone/••••••••78"),
        ("tel|0612345678", "tel|••••••••78"), ("users/phone/0612345678", "users/phone/••••••••78"),
        // An international number the id starts with, words after it (hostile 11 F1).
        ("+14155550199 (mobile)", "+1••••••••99 (mobile)"), ("+14155550188.", "+1••••••••88."),
        ("(415) 555-0177 home", "••••••••77 home"), ("+1 415 555 0166#2", "+1••••••••66#2"),
        // Letters right after it leave a number written with `+` a number, as free text reads it
        // (audit 9, F2); one with `00` or an area code, glued to letters, is no number there either.
        ("+14155550100abc", "+1••••••••00abc"), ("0044 20 7946 0958b", "0044 20 7946 0958b"), ("(0161) 496 0000b", "(0161) 496 0000b"),
        // In groups too (hostile 16, F3).
        ("+44 20 7946 0958x", "+4•••••••••58x"), ("+1 415 555 0199x", "+1••••••••99x"),
        // After spaces of any kind, invisible characters, quotes or brackets (review 66, item 7).
        ("\u{A0}+14155550199 (mobile)", "\u{A0}+1••••••••99 (mobile)"), ("\u{200B}+14155550199 (mobile)", "\u{200B}+1••••••••99 (mobile)"),
        ("\u{FEFF}+14155550199 (mobile)", "\u{FEFF}+1••••••••99 (mobile)"), ("'+14155550199 (mobile)", "'+1••••••••99 (mobile)"),
        ("\"+14155550199\" mobile", "\"+1••••••••99\" mobile"), ("[+14155550199] old", "[+1••••••••99] old"),
        // After any character that is no letter or digit (review 67).
        ("<+14155550199> old", "<+1••••••••99> old"), ("`+14155550199`", "`+1••••••••99`"), ("#+14155550199 x", "#+1••••••••99 x"),
        ("++14155550208", "++1••••••••08"), ("\u{2039}+14155550199>", "\u{2039}+1••••••••99>"),
        // With 00 or an area code in parentheses, ten digits or more are a number (review 67);
        // fewer are an id's (review 66, item 8).
        ("0044 20 7946 0958 home", "••••••••••••58 home"), ("(0161) 496 0000 old", "•••••••••00 old"),
        ("(11) 91234-5678 x", "•••••••••78 x"), ("0012345 old", "0012345 old"), ("(2026) 0123 v2", "(2026) 0123 v2"),
        // A year in parentheses is an id's; a short area code's number is a number (review 69).
        ("(2026) 000123 v2", "(2026) 000123 v2"), ("(030) 123456 x", "•••••••56 x"), ("(089) 12345 mobile", "••••••45 mobile"),
    ])
    func aSubjectIdIsMaskedOnlyWhenItIsAnAddressOrANumber(id: String, shown: String) {
        #expect(PIIMasker().maskSubjectID(id) == shown)
        #expect(PIIMasker(isEnabled: false).maskSubjectID(id) == id)
        let message = "linked to \(id) by call +1 415 555 0188"
        #expect(PIIMasker().maskText(message, keepingSubjectID: id) == "linked to \(shown) by call +1••••••••88")
    }

    /// Every place a message names its subject is kept as the subject id, whether the message is
    /// plain ASCII (cut by bytes) or not (cut by characters), and the text between is masked.
    @Test(arguments: [
        ("uid+12345678901 then uid+12345678901 by jane@example.com", "uid+12345678901 then uid+12345678901 by j•••@example.com"),
        ("uid+12345678901 → uid+12345678901 by jane@example.com", "uid+12345678901 → uid+12345678901 by j•••@example.com"),
        ("uid+12345678901uid+12345678901, call +1 415 555 0188", "uid+12345678901uid+12345678901, call +1••••••••88"),
        ("no subject here, call +1 415 555 0188", "no subject here, call +1••••••••88"),
    ])
    func aSubjectNamedTwiceInAMessageIsKeptBothTimes(message: String, shown: String) {
        #expect(PIIMasker().maskText(message, keepingSubjectID: "uid+12345678901") == shown)
    }

    /// The search for a subject id in a text finds what comparing at every place finds, for ids
    /// that repeat their own start (`abab` after `aba`), where a search must fall back within the id.
    @Test func theSubjectIdSearchFindsWhatComparingAtEveryPlaceFinds() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0..<30, using: &generator)).map { _ in "ab+".randomElement(using: &generator)! }
            let id = (0..<Int.random(in: 1..<6, using: &generator)).map { _ in "ab+".randomElement(using: &generator)! }
            let scalars = text.map { $0.unicodeScalars.first! }
            let pattern = id.map { $0.unicodeScalars.first! }
            let start = Int.random(in: 0...scalars.count, using: &generator)
            let compared = (start..<max(start, scalars.count - pattern.count + 1)).first {
                scalars[$0..<($0 + pattern.count)].elementsEqual(pattern)
            }
            #expect(PIIMasker.ScalarSearch(pattern).firstOccurrence(in: scalars, from: start) == compared, "\(id) in \(text)")
        }
    }

    /// A subject id that stands inside an address or a number of the message is part of it:
    /// the address or number is masked whole; the id standing alone is kept.
    @Test(arguments: [
        ("jdoe", "jdoe linked jdoe@example.com", "jdoe linked j•••@example.com"),
        ("41", "subject 41 called +1 415 555 0199", "subject 41 called +1••••••••99"),
        ("doe", "mail to jane.doe@example.com for doe", "mail to j•••@example.com for doe"),
        ("acct-0612345678", "acct-0612345678 linked 0698765432", "acct-0612345678 linked ••••••••32"),
        // The free text would mask the id's own digits; the id is printed as it is.
        ("user 0612345678", "user 0612345678 linked 0698765432", "user 0612345678 linked ••••••••32"),
    ])
    func aSubjectIdInsideAnAddressIsMaskedWithIt(id: String, message: String, shown: String) {
        #expect(PIIMasker().maskText(message, keepingSubjectID: id) == shown)
    }

    /// An empty subject id (which relaylint's own events may carry) keeps nothing: the message
    /// is masked as free text.
    @Test func aMessageOfAnEmptySubjectIsMaskedWhole() {
        #expect(PIIMasker().maskText("write to dpo@example.com", keepingSubjectID: "") == "write to d•••@example.com")
    }

    @Test(arguments: [
        ("jane@example.com", "j•••@example.com"), ("x9@privaterelay.appleid.com", "x•••@privaterelay.appleid.com"),
        ("+15555550167", "+1••••••••67"), ("+1 (555) 555-0167", "+1••••••••67"), ("google.com", "google.com"),
        ("evt-0012", "evt-0012"), ("1767225600000", "1767225600000"),
    ])
    func masksEmailsAndPhoneNumbers(value: String, masked: String) {
        #expect(PIIMasker().mask(value) == masked)
    }

    @Test func maskingCanBeTurnedOff() {
        #expect(PIIMasker(isEnabled: false).mask("jane@example.com") == "jane@example.com")
    }

    @Test func masksAddressesInsideText() {
        #expect(
            PIIMasker().maskText("sent to jane@example.com, then +15555550167 again") == "sent to j•••@example.com, then +1••••••••67 again"
        )
        #expect(PIIMasker().maskText("call (+15555550167)") == "call (+1••••••••67)")
    }

    @Test(arguments: [
        ("jane.doe@example.com (Jane)", "j•••@example.com (Jane)"),
        ("please write to jane@example.com", "please write to j•••@example.com"),
        ("mail JOHN+tag@Example.COM, ok", "mail J•••@Example.COM, ok"),
        ("<jane@example.com>; bob_smith@mail.example.co.uk.", "<j•••@example.com>; b•••@mail.example.co.uk."),
        ("sent to jane@example.com and then nothing else happened", "sent to j•••@example.com and then nothing else happened"),
        ("mailto:zoë@exämple.de", "mailto:z•••@exämple.de"),
        ("call +1 415 555 0188", "call +1••••••••88"),
        ("call 415-555-0199 now", "call ••••••••99 now"),
        ("(415) 555-0199", "••••••••99"),
        ("+44 20 7946 0958, or 020 7946 0958", "+4•••••••••58, or •••••••••58"),
        ("fax 415.555.0199.", "fax ••••••••99."),
        ("mobile 0612345678", "mobile ••••••••78"),
        ("+33 6 12 34 56 78 and 06 12 34 56 78", "+3••••••••78 and ••••••••78"),
        ("0049 30 1234567", "•••••••••••67"),
        ("phone:+15555550167", "phone:+1••••••••67"),
        // A UK mobile or landline as written at home: a five-digit prefix after the trunk 0.
        ("call 07911 123456", "call •••••••••56"),
        ("01632 960123", "•••••••••23"),
        // Forms met in real text: punycode domains, names with an apostrophe or an invisible
        // character, numbers formatted with no-break spaces or en dashes.
        ("ivan@example.xn--p1ai", "i•••@example.xn--p1ai"),
        ("write to o'brien@example.com", "write to o•••@example.com"),
        ("'jane@example.com'", "'j•••@example.com'"),
        ("ja\u{200B}ne@example.com", "j•••@example.com"),
        ("06\u{00A0}12\u{00A0}34\u{00A0}56\u{00A0}78", "••••••••78"),
        ("+33\u{202F}6\u{202F}12\u{202F}34\u{202F}56\u{202F}78", "+3••••••••78"),
        ("+1–415–555–0188", "+1••••••••88"),
        ("2050 1999", "••••••99"),
        // RFC 5322's quoted local parts and address literals.
        (#"write "john q"@example.com today"#, #"write "•••@example.com today"#),
        // Spellings an independent tester found shown whole or in part: RFC 5322's `/`, `{`,
        // `|` and `}` in a local part, `_` in a domain, an at sign percent-encoded, a doubled
        // space between groups, and an extension after the number.
        ("a@x.com|jane@example.com", "a•••@x.com|•••@example.com"),
        ("{a@x.com}{jane@example.com}", "{•••@x.com}•••@example.com}"),
        ("a%40x.com/jane%40example.com", "a•••%40x.com/j•••%40example.com"),
        ("mary{x}@example.com", "m•••@example.com"),
        ("jane@my_host.example.com", "j•••@my_host.example.com"),
        ("see jane%40example.com&x=1", "see j•••%40example.com&x=1"),
        ("+1  415  555  0188", "+1••••••••88"),
        ("+14155550188x12", "+1••••••••••12"),
        ("call +1 415 555 0188 ext. 12 now", "call +1••••••••••12 now"),
        ("jane@[10.0.0.1], or jane@[IPv6:2001:db8::1]", "j•••@[10.0.0.1], or j•••@[IPv6:2001:db8::1]"),
        // An area code or trunk 0 in parentheses right after the country code, and groups split
        // by slashes, were shown whole or in part.
        ("+44(0)2079460958", "+4••••••••••58"),
        ("+49(89)12345678", "+4•••••••••78"),
        ("+1(415)555-2671", "+1••••••••71"),
        ("+33(0)6 12 34 56 78", "+3•••••••••78"),
        ("+1/415/555/2671", "+1••••••••71"),
        // An address an id's suffix is glued to; a national number after a query's `=`; an
        // international number before `:` or `_`; a slash after a two-digit area code; labels
        // without `:`, numbered, abbreviated or in other languages; a Japanese dash; dotted
        // national forms; a trunk or country digit before parentheses.
        ("jane.doe@example.com_1767225600", "j•••@example.com_1767225600"), ("jane.doe@example.com-1", "j•••@example.com-1"),
        ("?to=0612345678&x=1", "?to=••••••••78&x=1"), ("sms to +44 20 7946 0958: delivered", "sms to +4•••••••••58: delivered"),
        ("+44 20 7946 0958_work", "+4•••••••••58_work"), ("02/123 45 67", "•••••••67"), ("Phone 4155550100", "Phone ••••••••00"),
        ("Phone No. 4155550100", "Phone No. ••••••••00"), ("Phone #: 4155550100", "Phone #: ••••••••00"),
        ("Ph: 4155550100", "Ph: ••••••••00"), ("phone1=4155550100", "phone1=••••••••00"), ("Telefon: 4155550100", "Telefon: ••••••••00"),
        ("телефон: 89123456789", "телефон: •••••••••89"), ("电话：13800138000", "电话：•••••••••00"), ("090ー1234ー5678", "•••••••••78"),
        ("06.12345678", "••••••••78"), ("612.34.56.78", "•••••••78"), ("8(912)3456789", "•••••••••89"), ("0(532)1234567", "•••••••••67"),
        ("sms_+447700900123", "sms_+4•••••••••23"), ("(+44)7700900123", "••••••••••23"), ("(+44) 7700 900123", "••••••••••23"),
        // A top-level domain in a script whose vowel signs are marks, an RFC 5322 comment in a
        // local part, an HTML escape encoded twice.
        ("jane@example.இந்தியா", "j•••@example.இந்தியா"), ("jane(work)@example.com", "j•••@example.com"),
        ("jane (work)@example.com", "j•••@example.com"), (#""jane"(work)@example.com"#, #""•••@example.com"#),
        ("jane&amp;#64;example.com", "j•••&amp;#64;example.com"), ("jane&amp;amp;#x40;example.com", "j•••&amp;amp;#x40;example.com"),
        // National forms an independent tester found shown whole: a country code 1 or a trunk
        // 8 written alone, pairs split by dots, a group of four after a trunk 0 (no year but
        // the first thousand starts with 0), a slash after the area code, India's mobiles.
        ("1-415-555-0100", "•••••••••00"), ("1 415 555 0100", "•••••••••00"), ("1 4155550100", "•••••••••00"),
        ("8 9123456789", "•••••••••89"),
        ("8 912 345-67-89", "•••••••••89"), ("06.12.34.56.78", "••••••••78"), ("0475 12 34 56", "••••••••56"),
        ("0475-12-34-56", "••••••••56"), ("0664 12 34 567", "•••••••••67"), ("0171/1234567", "•••••••••67"),
        ("030/12345678", "•••••••••78"), ("0475/12.34.56", "••••••••56"),
        // A `+` and 8 to 15 digits in a row right before a letter was shown whole.
        ("+14155550123x", "+1••••••••23x"),
        // A national number in one run joined to a path, a list, a colon or a word's dot, and
        // one in groups before a colon.
        ("/v1/users/0612345678/verify", "/v1/users/••••••••78/verify"), ("0612345678/0698765432", "••••••••78/••••••••32"),
        ("phone:0612345678:verified", "phone:••••••••78:verified"), ("Tel.0612345678", "Tel.••••••••78"),
        ("callto:0612345678", "callto:••••••••78"),
        ("hotel:0612345678", "hotel:••••••••78"),
        // A number joined by its `+` to a word that names one.
        ("phone+14155550404", "phone+1••••••••04"), ("sms+447700900123", "sms+4•••••••••23"),
        ("телефон+79123456789", "телефон+7••••••••89"), ("電話+81312345678", "電話+8••••••••78"),
        ("user_tel+14155550404", "user_tel+1••••••••04"),
        // Two national numbers apart by a space; India's mobile after its trunk 0.
        ("0612345678 0698765432", "••••••••78 ••••••••32"), ("call 098765 43210", "call •••••••••10"),
        // Two in groups apart by a space, each whole: read as one, the first six digits showed.
        ("06 12 34 56 78 06 98 76 54 32", "••••••••78 ••••••••32"),
        ("0049 151 1234 5678 0049 151 8765 4321", "•••••••••••••78 •••••••••••••21"),
        ("0044 20 7946 0958 0044 20 7946 0959", "••••••••••••58 ••••••••••••59"),
        ("020 7946 0958 020 7946 0959", "•••••••••58 •••••••••59"),
        ("call +14155550123now", "call +1••••••••23now"),
        // In groups, as in one run (hostile 16, F3).
        ("call +1 415 555 0123now", "call +1••••••••23now"),
    ])
    func masksAddressesAndNumbersWhereverTheyStand(value: String, masked: String) {
        #expect(PIIMasker().mask(value) == masked)
        #expect(PIIMasker(isEnabled: false).mask(value) == value)
    }

    @Test(arguments: [
        "evt-0012", "uid-42", "u1", "1767225600000", "1767225600", "2026-01-15", "2026-01-15T08:31:12Z", "2026-01-15 08:31:12",
        "15-01-2026", "08:31:12.123456789", "version 15.19.0", "1.2.3", "192.168.100.200", "10.0.0.1", "pkg@1.2.3",
        "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "123e4567-e89b-12d3-a456-426614174000",
        "Yz4uJoHgkb7jjRw8CmnqbGSkbZ0z", "ticket SUP-1432", "1,234,567 events", "@octocat", "node@18", "pkg@1.2.3.4.5",
        "j•••@example.com", "+1••••••••67", "4 of 9 checked, 44.4 %", "30d", "1234567", "order 98765432",
        "evt-0109 at 2026-06-02T07:58:42.118Z", "#12345678", "12345 678901", "2026-2027", "1990–2025",
        "100% done", "50%40 ratio", "+1 42 exam", "0x1234567", "see https://medium.com/@jane.doe/post",
        "AT&T", "&#64;octocat", "tom &amp; jerry", "50%2B", "٢٠٢٦-٠١-١٥", "ｖｅｒｓｉｏｎ　１．２．３",
        "job@v2", "worker@queue-3", "image@sha256:9f86d081", "com.example.app@2x", "&#+64;x", "hotel:4155550131",
        "100%25 done", "50%2540 ratio", "%C3%28 %FF%FE %E2%82 %F5%80%80%80", "a%0A@%0Ab", "1.0.0+20130313144700", "a+1234567",
        "1.0.0-beta+20130313144700", "2.4.0-rc+20240315", "order+123456789",
        "search?q=invoice+1234567890", "SKU+12345678A",
        // Dates written with the first thousand years' 0 (or none: `0000-00-00`), or split by
        // slashes; groups of five; versions and ids shaped as a North American number.
        "0001-01-01", "0999-12-31T23:59:59Z", "01/02/2026", "2026/01/15", "1 2026 01 15", "0000-00-00", "0001 01 01",
        "65536 65536", "zip 90210 94105", "0000000001", "00000042", "20260115-000123", "2026-000123", "pkg@1.2.3-beta",
        "lib@2.0.0-rc.1", "user@host.v2", "1.415.555.0100", "1.234.567.8901", "8.100.200.3000", "1-100-200-3000",
        // A label, but a date, a version or a count of seven digits.
        #""mobile": "2026-01-15""#, "cell: 2026-01-15", "mobile: 1.2.3.4567", #"{"iPhone": 1234567}"#,
        #"{"web": 1234567, "mobile": 7654321}"#,
        // A call's parentheses before a host name are no comment.
        "retry(3)@worker", "fn(x)@localhost", "see (note)@bob", "at App.render(App.swift)@main",
        // Words that hold a phone label but are not one.
        "iphone=4155550100", "phoneme=4155550100", "phone_count=12345678", "telemetry: 4155550100",
        // A fraction's digits, a version's, a zero-padded id and a run without a trunk 0 in a path.
        "Thu Jan 15 2026 10:30:00 GMT+0000", "15 01 2026 10:30", "p=0.0612345678", "v1.0612345678", "012345 67890", "/items/0000000001/",
        "/users/6123456789/verify", "0612345678_1767225600",
        // A spaced `@` before a name without a dot, or a price; a setting; a date written with
        // middle dots; a squared unit; a circled ten.
        "ping me @ lunch", "buy 3 @ 3.99", "ping @octocat", "see @ 10:30", "2026 - 01 - 15",
        // Ordinary spaces around an `@` are log text and mentions; `=40` is a setting's.
        "connection refused @ api.example.com", "thanks @john.smith", "cc @jane.doe", "size=40x40.png", "jane.doe=40example.com",
        // A lone raised digit is a footnote's; a date after a word of another script.
        "バージョン+20260101", "hours 01/02/03/04/05/06", "timeout=40ms", "retries=40", "2026·01·15",
        "12 m² 1234567", "step ⑩ 123456",
        "01/02/2026 10:30", "06/12/34", "05/12/2026/0012",
    ])
    func leavesIdsDatesTimesVersionsAndHashes(value: String) {
        #expect(PIIMasker().mask(value) == value)
    }

    /// What a reader reads as an address or a number is masked, however it is spelled: with a
    /// character that shows nothing inside it (a control character, a zero-width space, a soft
    /// hyphen, a bidirectional mark), in fullwidth or another script's digits, or escaped for
    /// HTML or a URL. The domain kept is shown as it was written.
    @Test(arguments: [
        ("secretjane\u{1}@example.com", "s•••@example.com"),
        ("jane@example.com\u{7}", "j•••@example.com\u{7}"),
        ("+1 415 555\u{200B}0188", "+1••••••••88"),
        ("+1 415\u{00AD}555\u{00AD}0188", "+1••••••••88"),
        ("call \u{202E}+1 415 555 0188\u{202C}", "call \u{202E}+1••••••••88\u{202C}"),
        ("+1\u{200F}4155550188", "+1••••••••88"),
        ("ｊａｎｅ＠ｅｘａｍｐｌｅ．ｃｏｍ", "j•••＠ｅｘａｍｐｌｅ．ｃｏｍ"),
        ("jane﹫example.com", "j•••﹫example.com"),
        ("＋１ ４１５ ５５５ ０１８８", "+1••••••••88"),
        ("٠٦١٢٣٤٥٦٧٨", "••••••••78"),
        ("jane&#64;example.com", "j•••&#64;example.com"),
        // A string literal's escapes, also escaped again (a JSON document in a JSON string), and
        // a control character a JSON report escaped; escapes written twice in two ways.
        ("jane.doe\\u0040example.com", "j•••\\u0040example.com"), ("jane.doe\\x40example.com", "j•••\\x40example.com"),
        (#"{"email":"jane\\u0040example.com"}"#, #"{"email":"j•••\\u0040example.com"}"#),
        ("jane.doe\\u0000@example.com", "j•••@example.com"), ("\\u002B14155550199", "+1••••••••99"),
        ("jane&#x26;#64;example.com", "j•••&#x26;#64;example.com"), ("jane&#37;40example.com", "j•••&#37;40example.com"),
        ("jane&#x40;example&#46;com", "j•••&#x40;example&#46;com"),
        ("write to jane&commat;example.com.", "write to j•••&commat;example.com."),
        ("to=%2B14155550188&from=x", "to=+1••••••••88&from=x"),
        ("jane\u{301}@example.com", "j•••@example.com"),
        ("user@localhost", "u•••@localhost"),
        // A control character is read both as nothing and as a break: either reading's address
        // or number is masked, and the character stays where it was.
        ("tel\u{B}0612345678", "tel\u{B}••••••••78"),
        ("call 0612340125\u{B}now", "call ••••••••25\u{B}now"),
        ("sekrit33@example.com\u{B}x", "s•••@example.com\u{B}x"),
        // Left out, the character joins the word before to the address: masked from there.
        ("x\u{B}sekrit32@example.com", "x•••@example.com"),
        ("jane\u{1}doe@example.com", "j•••@example.com"),
        ("q\u{1}z\u{1}x\u{7F}w\u{9F}v@example.com", "q•••@example.com"),
        ("qzxwv&#1;@example.com", "q•••@example.com"),
        ("jane\u{1}doe@example.com\u{1}0612345678", "j•••@example.com\u{1}••••••••78"),
        ("qzxwv&#000000064;example.com", "q•••&#000000064;example.com"),
        ("id\u{85}0612340126", "id\u{85}••••••••26"),
        // Variation selectors and the combining grapheme joiner show nothing either.
        ("06\u{FE0F}12\u{FE0F}34\u{FE0F}01\u{FE0F}05", "••••••••05"),
        ("0612\u{34F}340106", "••••••••06"),
        ("+1\u{2007}415\u{2007}555\u{2007}0118", "+1••••••••18"),
        ("+1\u{3000}415\u{3000}555\u{3000}0118", "+1••••••••18"),
        // Any numeric reference, with or without its semicolon, and percent-encoded letters.
        ("sekrit29&#8203;@example.com", "s•••@example.com"),
        ("sekrit30&#65312;example.com", "s•••&#65312;example.com"),
        ("jane&#64example.com", "j•••&#64example.com"),
        ("%73ekrit%40example.com", "s•••%40example.com"),
        // Percent-encoded UTF-8 (a fullwidth at sign, fullwidth digits) and escapes encoded
        // twice, as a URL inside a URL is: `%25` is the `%` of the escape after it.
        ("jane%EF%BC%A0example.com", "j•••%EF%BC%A0example.com"),
        ("jane%2540example.com", "j•••%2540example.com"),
        ("next=%252Fmail%253Fto%253Djane%252540example.com", "next=%252Fm•••%252540example.com"),
        ("to=%252B14155550188", "to=+1••••••••88"),
        ("%EF%BC%90%EF%BC%96%EF%BC%911234%EF%BC%9578", "••••••••78"),
        ("jane%E2%80%8B@example.com", "j•••@example.com"),
        ("tel:0612340117", "tel:••••••••17"),
        // After tel: or sms:, digits are a phone number whatever their count and first digit.
        ("tel:4155550131", "tel:••••••••31"), ("SMS:4155550132 ok", "SMS:••••••••32 ok"),
        // So are they after a label that names a phone number, as a key and value or as JSON.
        ("phone=0612345678", "phone=••••••••78"), ("phone:4155550100", "phone:••••••••00"),
        ("Mobile: 4155550100", "Mobile: ••••••••00"), (#"{"phoneNumber":"4155550100"}"#, #"{"phoneNumber":"••••••••00"}"#),
        ("user_phone=4155550100&x=1", "user_phone=••••••••00&x=1"), ("contactPhoneNumber='4155550100'", "contactPhoneNumber='••••••••00'"),
        ("tel = 4155550100", "tel = ••••••••00"), ("Phone Number: 4155550100", "Phone Number: ••••••••00"),
        (#"{\"phone\":\"4155550100\"}"#, #"{\"phone\":\"••••••••00\"}"#), ("tel.: 4155550100", "tel.: ••••••••00"),
        ("phone_e164=14155550100", "phone_e164=•••••••••00"), ("sms: 4155550100", "sms: ••••••••00"),
        ("phone:\t4155550100", "phone:\t••••••••00"), ("phone   :   4155550100", "phone   :   ••••••••00"),
        ("customer_primary_contact_phone_number=4155550100", "customer_primary_contact_phone_number=••••••••00"),
        ("jane@10.0.0.1", "j•••@10.0.0.1"),
        ("jane@example.x", "j•••@example.x"),
        // A line break or a tab inside one, which every report shows escaped (`\n`, `&#xA;`).
        ("jane.doe@\nexample.com", "j•••@\nexample.com"), ("jane.doe@\u{2028}example.com", "j•••@\u{2028}example.com"),
        ("jane.doe\t@example.com", "j•••@example.com"), ("+1 415\r555 0199", "+1••••••••99"),
        ("call 06 12\n34 56 78", "call ••••••••78"), ("jane@example.com\n2026-01-15\n12:30", "j•••@example.com\n2026-01-15\n12:30"),
        // A number whose line ends is not read on into the next line's digits.
        ("phone +1 415 555 0199\n42 retries", "phone +1••••••••99\n42 retries"),
        ("tel 06 12 34 56 78\n2026-01-15", "tel ••••••••78\n2026-01-15"),
        ("+14155550199\t+14155550188", "+1••••••••99\t+1••••••••88"),
        // An `@` with a no-break space on either side or both.
        ("jane.doe\u{00A0}@\u{00A0}example.com", "j•••@\u{00A0}example.com"), ("jane.doe\u{00A0}@example.com", "j•••@example.com"),
        // Escapes of string literals and of HTML: `\@`, `\u{40}`, `&nbsp;`, `&ndash;`.
        ("jane.doe\\@example.com", "j•••\\@example.com"), ("jane.doe\\u{40}example.com", "j•••\\u{40}example.com"),
        ("+1&nbsp;415&nbsp;555&nbsp;0199", "+1••••••••99"), ("+1 415&ndash;555&ndash;0199", "+1••••••••99"),
        // A hyphen spaced apart; marks on digits (an underline, keycaps); a phone's apostrophe.
        ("+1 - 415 - 555 - 0199", "+1••••••••99"), ("(415) 555 - 0199", "••••••••99"),
        ("+1 4\u{332}15 555 0199", "+1••••••••99"), ("+1\u{FE0F}\u{20E3}4\u{FE0F}\u{20E3}1\u{FE0F}\u{20E3}5 555 0199", "+1••••••••99"),
        ("jean-luc.o’brien@example.com", "j•••@example.com"),
        // Plus signs of other shapes; digits raised, lowered or in circles; dots set mid-line.
        ("﹢14155550199", "+1••••••••99"), ("⁺14155550199", "+1••••••••99"), ("➕14155550199", "+1••••••••99"),
        ("+1 ⁴¹⁵ ⁵⁵⁵ ⁰¹⁹⁹", "+1••••••••99"), ("+1 ₄₁₅ ₅₅₅ ₀₁₉₉", "+1••••••••99"), ("+1 ④①⑤ ⑤⑤⑤ ⓪①⑨⑨", "+1••••••••99"),
        // A word on the line before an address is not part of it.
        ("Contact\nsupport@example.com", "Contact\ns•••@example.com"), ("Contact\r\nsupport@example.com", "Contact\r\ns•••@example.com"),
        ("06/12/34/56/78", "••••••••78"), ("핸드폰+821012345678", "핸드폰+8•••••••••78"), ("Straße+491701234567", "Straße+4•••••••••67"),
        ("¹+14155550199", "¹+1••••••••99"), ("x²+14155550199", "x²+1••••••••99"), ("+1&middot;415&middot;555&middot;0199", "+1••••••••99"),
        ("+1_415_555_0199", "+1••••••••99"), ("+14155550199_1767225600", "+1••••••••99_1767225600"), ("+1·415·555·0199", "+1••••••••99"),
        ("+1•415•555•0199", "+1••••••••99"),
        ("+1・415・555・0199", "+1••••••••99"),
    ])
    func masksWhatAReaderReadsAsAnAddress(value: String, masked: String) {
        #expect(PIIMasker().mask(value) == masked)
        #expect(PIIMasker(isEnabled: false).mask(value) == value)
    }

    /// A field's name says its value is a phone number as a label before a number does: a rule's
    /// `{event.FIELD}` of such a field is masked whatever the value's format.
    @Test func fieldNamesThatSayPhoneNumber() {
        for name in [
            "phone", "phoneNumber", "phone_number", "mobile", "msisdn", "tel", "contact_phone", "phone_e164", "MobileNo", "phone2",
        ] {
            #expect(PIIMasker.namesPhoneNumber(name), "\(name)")
        }
        for name in ["iPhone", "phoneme", "phone_count", "phone_verified_at", "telemetry", "hotel", "value", "email"] {
            #expect(!PIIMasker.namesPhoneNumber(name), "\(name)")
        }
    }

    /// A value quoted shortened (an evidence id, a key) is not cut inside an address: the name
    /// and `@` kept without the domain were no address to the masker, and showed.
    @Test func aShortenedValueDoesNotCutAnAddressInTwo() {
        let id = String(repeating: "x", count: 250) + " jane.doe@example.com"
        let shown = id.shortened(to: 256)
        #expect(shown == String(repeating: "x", count: 250) + " …")
        #expect(!PIIMasker().mask(shown).contains("jane"))
        #expect("a@b.com and then a long tail".shortened(to: 20) == "a@b.com and then a l…")
        #expect((String(repeating: "y", count: 10) + " mary@example.com").shortened(to: 20) == String(repeating: "y", count: 10) + " …")
    }

    /// Masking is linear in a value's length: a value of a megabyte holding one long address, or
    /// a quarter of a million short ones, took 20 to 50 s when the masked text was put together
    /// a piece at a time.
    @Test(.timeLimit(.minutes(1))) func aLongValueIsMaskedInOnePass() {
        let long = "a@" + String(repeating: "b", count: 1_000_000) + ".com"
        #expect(PIIMasker().mask(long) == "a•••@" + String(repeating: "b", count: 1_000_000) + ".com")
        let many = String(repeating: "ab@cd.ef ", count: 200_000)
        #expect(PIIMasker().mask(many) == String(repeating: "a•••@cd.ef ", count: 200_000))
    }

    /// A run of more than 15 digits in groups is no number, however long: `1 1 1 …` stays as it
    /// is, and a number beside it is still masked (each digit of the run was scanned to its end,
    /// quadratic in the value's length).
    @Test(.timeLimit(.minutes(1))) func aLongRunOfDigitGroupsIsNoNumber() {
        let run = Array(repeating: "1", count: 100_000).joined(separator: " ")
        #expect(PIIMasker().mask(run) == run)
        #expect(PIIMasker().mask(run + ", call +1 415 555 0188") == run + ", call +1••••••••88")
    }
}
