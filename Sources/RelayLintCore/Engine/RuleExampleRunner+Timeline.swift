extension RuleExampleRunner {
    /// One event of an example's timeline as a failure prints it: `time subject id type
    /// field=value …`. Kept in parts so that each is masked as a report masks it: the subject as
    /// a subject id, a phone field's value as a phone number whatever its format (`value` of a
    /// phone link, `mobile`), which free-text masking takes for an id.
    struct TimelineEntry: Sendable, Equatable {
        struct Field: Sendable, Equatable {
            var name: String
            var value: String
            var isPhone: Bool
        }

        var time: String
        var subject: String
        var id: String
        var type: String
        var fields: [Field]

        init(_ event: Event) {
            time = event.time.description
            subject = event.subject
            id = event.id
            type = event.type
            fields = event.fields.map { name, value in
                Field(name: name, value: value.displayText, isPhone: SubjectRuleEvaluator.isPhoneField(name, of: event))
            }
        }

        var text: String { "\(time) \(subject) \(id) \(type) " + fields.map { "\($0.name)=\($0.value)" }.joined(separator: " ") }

        func masked(by masker: PIIMasker) -> TimelineEntry {
            var entry = self
            entry.subject = masker.maskSubjectID(subject)
            entry.id = masker.maskSubjectID(id)
            entry.type = masker.maskText(type)
            entry.fields = fields.map { field in
                var field = field
                field.value = field.isPhone ? masker.maskPhoneField(field.value) : masker.maskText(field.value)
                return field
            }
            return entry
        }
    }
}
