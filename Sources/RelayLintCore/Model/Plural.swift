/// Counted nouns in messages and reports: "1 rule" and "2 rules", never "1 rules".
public enum Plural {
    /// The count and the noun, singular for exactly one.
    /// - Parameter plural: the plural where it is not the noun plus "s".
    public static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) " + word(count, noun, plural: plural)
    }

    /// The noun alone, in the number the count asks for.
    public static func word(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        count == 1 ? noun : plural ?? noun + "s"
    }
}
